// runtime/pjrt/pjrt_c_api.h against OpenXLA's pjrt_c_api.h at the same
// version (0.81): every struct's size, alignment and *_STRUCT_SIZE, every
// member's offset, size and type, every PJRT_Api slot and every enumerator
// must be equal, or a real PJRT client would misread a plugin built with
// our header. The entries come from pjrt_layout_entries.inc; tests here
// also check that the entries cover each header completely.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/runtime/pjrt/pjrt_layout_table.h"

namespace pjrtx::pjrt_layout {
namespace {

enum class MemberKind { kField, kUnionMember, kApiSlot };

struct ListedMember {
  std::string name;
  MemberKind kind;
};

struct ListedStruct {
  std::string name;
  bool has_struct_size;
  std::vector<ListedMember> members;
};

struct ListedEnum {
  std::string name;
  std::vector<std::string> enumerators;
};

struct Listing {
  std::vector<ListedStruct> structs;
  std::vector<ListedEnum> enums;
  // Entries naming another struct (enum) than the one listed last.
  std::vector<std::string> misplaced;
};

// pjrt_layout_entries.inc as data, without either header.
Listing ReadListing() {
  Listing listing;
  auto add_member = [&listing](const std::string& type, ListedMember member) {
    if (listing.structs.empty() || listing.structs.back().name != type) {
      listing.misplaced.push_back(type + "::" + member.name);
      return;
    }
    listing.structs.back().members.push_back(std::move(member));
  };
  auto add_enumerator = [&listing](const std::string& type,
                                   const std::string& name) {
    if (listing.enums.empty() || listing.enums.back().name != type) {
      listing.misplaced.push_back(name);
      return;
    }
    listing.enums.back().enumerators.push_back(name);
  };
#define PJRTX_LAYOUT_STRUCT(S) listing.structs.push_back({#S, true, {}});
#define PJRTX_LAYOUT_PLAIN_STRUCT(S) listing.structs.push_back({#S, false, {}});
#define PJRTX_LAYOUT_FIELD(S, f) add_member(#S, {#f, MemberKind::kField});
#define PJRTX_LAYOUT_UNION_MEMBER(S, f) \
  add_member(#S, {#f, MemberKind::kUnionMember});
#define PJRTX_LAYOUT_API_SLOT(fn) \
  add_member("PJRT_Api", {#fn, MemberKind::kApiSlot});
#define PJRTX_LAYOUT_ENUM(E) listing.enums.push_back({#E, {}});
#define PJRTX_LAYOUT_ENUMERATOR(E, name) add_enumerator(#E, #name);
#include "tests/runtime/pjrt/pjrt_layout_entries.inc"
#undef PJRTX_LAYOUT_STRUCT
#undef PJRTX_LAYOUT_PLAIN_STRUCT
#undef PJRTX_LAYOUT_FIELD
#undef PJRTX_LAYOUT_UNION_MEMBER
#undef PJRTX_LAYOUT_API_SLOT
#undef PJRTX_LAYOUT_ENUM
#undef PJRTX_LAYOUT_ENUMERATOR
  return listing;
}

const Listing& TheListing() {
  static const Listing* listing = new Listing(ReadListing());
  return *listing;
}

const LayoutTable& Ours() {
  static const LayoutTable* table = new LayoutTable(OurLayout());
  return *table;
}

const LayoutTable& Upstream() {
  static const LayoutTable* table = new LayoutTable(UpstreamLayout());
  return *table;
}

int64_t Number(const LayoutTable& table, const std::string& key) {
  auto it = table.numbers.find(key);
  if (it == table.numbers.end()) {
    ADD_FAILURE() << "no entry for " << key;
    return -1;
  }
  return it->second;
}

std::string Type(const LayoutTable& table, const std::string& key) {
  auto it = table.types.find(key);
  if (it == table.types.end()) {
    ADD_FAILURE() << "no entry for " << key;
    return "";
  }
  return it->second;
}

// Expects the number under `key` to be the same in both tables.
void ExpectSameNumber(const std::string& key) {
  EXPECT_EQ(Number(Ours(), key), Number(Upstream(), key))
      << key << " (ours, then upstream's)";
}

void ExpectSameType(const std::string& key) {
  EXPECT_EQ(Type(Ours(), key), Type(Upstream(), key))
      << key << " (ours, then upstream's)";
}

int64_t RoundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

const ListedStruct& ListedApi() {
  static const ListedStruct* api = [] {
    for (const ListedStruct& listed : TheListing().structs) {
      if (listed.name == "PJRT_Api") return &listed;
    }
    static const ListedStruct missing{"PJRT_Api", true, {}};
    return &missing;
  }();
  return *api;
}

// Checks one header's table against the listing: each struct has exactly
// the listed members, in the listed order, each where C puts it after the
// one before (so none is left out between them), and its *_STRUCT_SIZE
// ends at the last one.
void ExpectListingCovers(const LayoutTable& table) {
  for (const ListedStruct& listed : TheListing().structs) {
    SCOPED_TRACE(listed.name);
    int members = 0;
    int64_t end = 0;           // Where the members so far end.
    int64_t union_offset = 0;  // Where the last non-union-member starts.
    for (const ListedMember& member : listed.members) {
      const int64_t offset = Number(table, OffsetKey(listed.name, member.name));
      const int64_t size =
          Number(table, MemberSizeKey(listed.name, member.name));
      const int64_t alignment =
          Number(table, MemberAlignofKey(listed.name, member.name));
      if (member.kind == MemberKind::kUnionMember) {
        EXPECT_EQ(offset, union_offset)
            << member.name << " is not in the union listed before it";
        end = std::max(end, offset + size);
        continue;
      }
      ++members;
      EXPECT_EQ(offset, RoundUp(end, alignment))
          << member.name
          << " is not where it would follow the member listed before it";
      union_offset = offset;
      end = offset + size;
    }
    EXPECT_EQ(members, Number(table, MemberCountKey(listed.name)))
        << "listed members vs the struct's";
    const int64_t alignment = Number(table, AlignofKey(listed.name));
    EXPECT_EQ(RoundUp(end, alignment), Number(table, SizeofKey(listed.name)))
        << "the last listed member is not the last one";
    if (listed.has_struct_size) {
      EXPECT_EQ(end, Number(table, StructSizeKey(listed.name)))
          << "*_STRUCT_SIZE is not the end of the last member";
    }
  }
}

// Tests that compare with the upstream header skip without it.
class PjrtLayoutUpstreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Upstream().available) {
      GTEST_SKIP() << Upstream().unavailable_reason;
    }
  }
};

TEST(PjrtLayoutTest, ListingIsWellFormed) {
  EXPECT_TRUE(TheListing().misplaced.empty())
      << "entries after another struct's or enum's: "
      << ::testing::PrintToString(TheListing().misplaced);
  EXPECT_FALSE(ListedApi().members.empty()) << "PJRT_Api is not listed";
  // What upstream's header declares at 0.81. A struct or enum cannot be
  // enumerated from C++, so these counts guard against one dropped from
  // the listing.
  EXPECT_EQ(TheListing().structs.size(), 135u);
  size_t enumerators = 0;
  for (const ListedEnum& listed : TheListing().enums) {
    enumerators += listed.enumerators.size();
  }
  EXPECT_EQ(TheListing().enums.size(), 7u);
  EXPECT_EQ(enumerators, 79u);
}

TEST(PjrtLayoutTest, OurHeaderClaimsVersion0_81) {
  EXPECT_EQ(Number(Ours(), EnumeratorKey("PJRT_API_MAJOR")), 0);
  EXPECT_EQ(Number(Ours(), EnumeratorKey("PJRT_API_MINOR")), 81);
}

TEST(PjrtLayoutTest, ListingCoversOurHeader) { ExpectListingCovers(Ours()); }

TEST_F(PjrtLayoutUpstreamTest, ListingCoversUpstreamHeader) {
  ExpectListingCovers(Upstream());
}

// The function table is the version, then one pointer per listed slot and
// nothing else: no slot is missing from the listing.
TEST(PjrtLayoutTest, ApiIsVersionThenListedSlots) {
  int64_t slots = 0;
  for (const ListedMember& member : ListedApi().members) {
    slots += member.kind == MemberKind::kApiSlot ? 1 : 0;
  }
  EXPECT_EQ(slots, 118);
  for (const LayoutTable* table : {&Ours(), &Upstream()}) {
    if (!table->available) continue;
    const int64_t header = static_cast<int64_t>(sizeof(size_t)) +
                           static_cast<int64_t>(sizeof(void*)) +
                           Number(*table, SizeofKey("PJRT_Api_Version"));
    EXPECT_EQ(Number(*table, SizeofKey("PJRT_Api")),
              header + slots * static_cast<int64_t>(sizeof(void (*)())));
  }
}

TEST_F(PjrtLayoutUpstreamTest, VersionMatchesUpstream) {
  ExpectSameNumber(EnumeratorKey("PJRT_API_MAJOR"));
  ExpectSameNumber(EnumeratorKey("PJRT_API_MINOR"));
}

TEST_F(PjrtLayoutUpstreamTest, StructSizesMatchUpstream) {
  for (const ListedStruct& listed : TheListing().structs) {
    ExpectSameNumber(SizeofKey(listed.name));
    ExpectSameNumber(AlignofKey(listed.name));
    ExpectSameNumber(MemberCountKey(listed.name));
    if (listed.has_struct_size) ExpectSameNumber(StructSizeKey(listed.name));
  }
}

TEST_F(PjrtLayoutUpstreamTest, MembersMatchUpstream) {
  for (const ListedStruct& listed : TheListing().structs) {
    for (const ListedMember& member : listed.members) {
      if (member.kind == MemberKind::kApiSlot) continue;
      ExpectSameNumber(OffsetKey(listed.name, member.name));
      ExpectSameNumber(MemberSizeKey(listed.name, member.name));
      ExpectSameType(MemberTypeKey(listed.name, member.name));
    }
  }
}

TEST_F(PjrtLayoutUpstreamTest, ApiSlotsMatchUpstream) {
  for (const ListedMember& member : ListedApi().members) {
    if (member.kind != MemberKind::kApiSlot) continue;
    ExpectSameNumber(OffsetKey("PJRT_Api", member.name));
    ExpectSameNumber(MemberSizeKey("PJRT_Api", member.name));
    ExpectSameType(MemberTypeKey("PJRT_Api", member.name));
  }
}

TEST_F(PjrtLayoutUpstreamTest, EnumsMatchUpstream) {
  for (const ListedEnum& listed : TheListing().enums) {
    ExpectSameNumber(SizeofKey(listed.name));
    ExpectSameType(UnderlyingTypeKey(listed.name));
    for (const std::string& enumerator : listed.enumerators) {
      ExpectSameNumber(EnumeratorKey(enumerator));
    }
  }
}

// Every enum of 0.81 numbers its enumerators 0, 1, 2, ... in order; a
// listing out of step with a header shows here.
TEST(PjrtLayoutTest, EnumeratorsAreConsecutiveInListedOrder) {
  for (const LayoutTable* table : {&Ours(), &Upstream()}) {
    if (!table->available) continue;
    for (const ListedEnum& listed : TheListing().enums) {
      for (size_t i = 0; i < listed.enumerators.size(); ++i) {
        EXPECT_EQ(Number(*table, EnumeratorKey(listed.enumerators[i])),
                  static_cast<int64_t>(i))
            << listed.enumerators[i];
      }
    }
  }
}

}  // namespace
}  // namespace pjrtx::pjrt_layout
