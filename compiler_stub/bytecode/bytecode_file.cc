#include "compiler_stub/bytecode/bytecode_file.h"

#include <array>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/encoding_reader.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

constexpr std::string_view kMagic = "ML\xefR";

absl::StatusOr<std::string_view> StringAt(const BytecodeFile& file,
                                          const EncodingReader& reader,
                                          uint64_t index) {
  if (index >= file.strings.size()) {
    return reader.Error(absl::StrCat("string index ", index, " out of range (",
                                     file.strings.size(), " strings)"));
  }
  return file.strings[index];
}

absl::Status ReadStrings(const Section& section, BytecodeFile& file) {
  EncodingReader reader(section.data, section.offset);
  PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("strings"));
  file.strings.resize(count);
  // Lengths (each with its NUL) are written last string first, and the
  // string data fills the end of the section.
  size_t end = section.data.size();
  for (uint64_t i = count; i-- > 0;) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t size, reader.ReadVarInt());
    if (size == 0 || size > end) {
      return reader.Error(absl::StrCat("string length ", size, " invalid"));
    }
    end -= size;
    file.strings[i] = std::string_view(
        reinterpret_cast<const char*>(section.data.data()) + end, size - 1);
  }
  if (reader.offset() - section.offset > end) {
    return reader.Error("string lengths overlap the string data");
  }
  return absl::OkStatus();
}

// {dialect, count, entries...} groups, `count` entries read by `entry`.
template <typename EntryFn>
absl::Status ReadDialectGroup(EncodingReader& reader, const BytecodeFile& file,
                              EntryFn entry) {
  PJRTX_ASSIGN_OR_RETURN(uint64_t dialect, reader.ReadVarInt());
  if (dialect >= file.dialects.size()) {
    return reader.Error(
        absl::StrCat("dialect index ", dialect, " out of range"));
  }
  PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("group entries"));
  for (uint64_t i = 0; i < count; ++i) {
    PJRTX_RETURN_IF_ERROR(entry(static_cast<size_t>(dialect)));
  }
  return absl::OkStatus();
}

absl::Status ReadDialects(const Section& section, BytecodeFile& file) {
  EncodingReader reader(section.data, section.offset);
  PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("dialects"));
  file.dialects.resize(count);
  for (Dialect& dialect : file.dialects) {
    if (file.version < kDialectVersioning) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t name, reader.ReadVarInt());
      PJRTX_ASSIGN_OR_RETURN(dialect.name, StringAt(file, reader, name));
      continue;
    }
    uint64_t name = 0;
    bool has_version = false;
    PJRTX_RETURN_IF_ERROR(reader.ReadVarIntWithFlag(&name, &has_version));
    PJRTX_ASSIGN_OR_RETURN(dialect.name, StringAt(file, reader, name));
    if (has_version) {
      PJRTX_ASSIGN_OR_RETURN(Section version, reader.ReadSection());
      if (version.id != SectionId::kDialectVersions) {
        return reader.Error("expected a dialect version section");
      }
      dialect.version = version.data;
    }
  }
  if (file.version >= kElideUnknownBlockArgLocation) {
    // The number of op names, a hint for the reader's allocation.
    PJRTX_RETURN_IF_ERROR(reader.ReadVarInt().status());
  }
  while (!reader.empty()) {
    PJRTX_RETURN_IF_ERROR(
        ReadDialectGroup(reader, file, [&](size_t dialect) -> absl::Status {
          uint64_t name = 0;
          if (file.version < kNativePropertiesEncoding) {
            PJRTX_ASSIGN_OR_RETURN(name, reader.ReadVarInt());
          } else {
            bool registered = false;  // Unused: all ops are decoded alike.
            PJRTX_RETURN_IF_ERROR(
                reader.ReadVarIntWithFlag(&name, &registered));
          }
          PJRTX_ASSIGN_OR_RETURN(std::string_view op,
                                 StringAt(file, reader, name));
          OpName op_name;
          op_name.dialect = dialect;
          std::string_view dialect_name = file.dialects[dialect].name;
          op_name.full_name = absl::StrCat(
              absl::string_view(dialect_name.data(), dialect_name.size()), ".",
              absl::string_view(op.data(), op.size()));
          file.op_names.push_back(std::move(op_name));
          return absl::OkStatus();
        }));
  }
  return absl::OkStatus();
}

absl::Status ReadAttrTypeOffsets(const Section& offsets, const Section& data,
                                 BytecodeFile& file) {
  EncodingReader reader(offsets.data, offsets.offset);
  // Each entry takes at least one byte of the offset section.
  PJRTX_ASSIGN_OR_RETURN(uint64_t num_attributes,
                         reader.ReadCount("attributes"));
  PJRTX_ASSIGN_OR_RETURN(uint64_t num_types, reader.ReadCount("types"));
  if (num_attributes + num_types > offsets.data.size()) {
    return reader.Error("more attributes and types than offset bytes");
  }
  file.attributes.resize(num_attributes);
  file.types.resize(num_types);
  size_t position = 0;
  for (std::vector<AttrTypeEntry>* entries : {&file.attributes, &file.types}) {
    size_t next = 0;
    while (next < entries->size()) {
      PJRTX_RETURN_IF_ERROR(
          ReadDialectGroup(reader, file, [&](size_t dialect) -> absl::Status {
            if (next >= entries->size()) {
              return reader.Error("more attribute/type entries than counted");
            }
            AttrTypeEntry& entry = (*entries)[next++];
            uint64_t size = 0;
            PJRTX_RETURN_IF_ERROR(
                reader.ReadVarIntWithFlag(&size, &entry.has_custom_encoding));
            if (size > data.data.size() - position) {
              return reader.Error(absl::StrCat("attribute/type size ", size,
                                               " exceeds its section"));
            }
            entry.dialect = dialect;
            entry.data = data.data.subspan(position, size);
            entry.offset = data.offset + position;
            position += size;
            return absl::OkStatus();
          }));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadProperties(const Section& section, BytecodeFile& file) {
  if (section.data.empty()) return absl::OkStatus();
  EncodingReader reader(section.data, section.offset);
  PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("properties"));
  file.properties.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t size, reader.ReadVarInt());
    file.properties_offsets.push_back(reader.offset());
    PJRTX_ASSIGN_OR_RETURN(absl::Span<const uint8_t> data,
                           reader.ReadBytes(size));
    file.properties.push_back(data);
  }
  if (!reader.empty()) return reader.Error("trailing bytes in properties");
  return absl::OkStatus();
}

// Resources (dense_resource blobs and the like) are never referenced by
// StableHLO artifacts, which keep constants inline; the sections are still
// checked to be well formed: groups of {key, size, kind} entries whose sizes
// fit the resource section.
absl::Status CheckResources(const Section* resources, const Section* offsets,
                            const BytecodeFile& file) {
  if (offsets == nullptr) {
    if (resources != nullptr && !resources->data.empty()) {
      return absl::InvalidArgumentError(
          "resource section without its offset section");
    }
    return absl::OkStatus();
  }
  EncodingReader reader(offsets->data, offsets->offset);
  uint64_t remaining = resources == nullptr ? 0 : resources->data.size();
  auto group = [&]() -> absl::Status {
    PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader.ReadCount("resources"));
    for (uint64_t i = 0; i < count; ++i) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t key, reader.ReadVarInt());
      PJRTX_RETURN_IF_ERROR(StringAt(file, reader, key).status());
      PJRTX_ASSIGN_OR_RETURN(uint64_t size, reader.ReadVarInt());
      PJRTX_RETURN_IF_ERROR(reader.ReadByte().status());  // kind
      if (size > remaining) {
        return reader.Error("resource larger than the resource section");
      }
      remaining -= size;
    }
    return absl::OkStatus();
  };
  PJRTX_ASSIGN_OR_RETURN(uint64_t external,
                         reader.ReadCount("external resource groups"));
  for (uint64_t i = 0; i < external; ++i) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t key, reader.ReadVarInt());
    PJRTX_RETURN_IF_ERROR(StringAt(file, reader, key).status());
    PJRTX_RETURN_IF_ERROR(group());
  }
  while (!reader.empty()) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t dialect, reader.ReadVarInt());
    if (dialect >= file.dialects.size()) {
      return reader.Error("resource group of an unknown dialect");
    }
    PJRTX_RETURN_IF_ERROR(group());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BytecodeFile> ReadBytecodeFile(absl::Span<const uint8_t> bytes) {
  EncodingReader reader(bytes);
  PJRTX_ASSIGN_OR_RETURN(absl::Span<const uint8_t> magic,
                         reader.ReadBytes(kMagic.size()));
  if (std::string_view(reinterpret_cast<const char*>(magic.data()),
                       magic.size()) != kMagic) {
    return absl::InvalidArgumentError("not MLIR bytecode (no ML\\xefR magic)");
  }
  BytecodeFile file;
  PJRTX_ASSIGN_OR_RETURN(file.version, reader.ReadVarInt());
  if (file.version > kNewestBytecodeVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("MLIR bytecode version ", file.version,
                     " is newer than the newest this reader supports (",
                     kNewestBytecodeVersion, ")"));
  }
  PJRTX_ASSIGN_OR_RETURN(file.producer, reader.ReadNulTerminated());

  std::array<std::optional<Section>, kNumSections> sections;
  while (!reader.empty()) {
    PJRTX_ASSIGN_OR_RETURN(Section section, reader.ReadSection());
    auto& slot = sections[static_cast<size_t>(section.id)];
    if (slot.has_value()) {
      return reader.Error(
          absl::StrCat("duplicate section ", static_cast<int>(section.id)));
    }
    slot = section;
  }
  for (SectionId required :
       {SectionId::kString, SectionId::kDialect, SectionId::kAttrType,
        SectionId::kAttrTypeOffset, SectionId::kIr}) {
    if (!sections[static_cast<size_t>(required)].has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "MLIR bytecode lacks section ", static_cast<int>(required)));
    }
  }
  auto get = [&](SectionId id) -> const Section& {
    return *sections[static_cast<size_t>(id)];
  };
  PJRTX_RETURN_IF_ERROR(ReadStrings(get(SectionId::kString), file));
  PJRTX_RETURN_IF_ERROR(ReadDialects(get(SectionId::kDialect), file));
  PJRTX_RETURN_IF_ERROR(ReadAttrTypeOffsets(get(SectionId::kAttrTypeOffset),
                                            get(SectionId::kAttrType), file));
  if (sections[static_cast<size_t>(SectionId::kProperties)].has_value()) {
    PJRTX_RETURN_IF_ERROR(ReadProperties(get(SectionId::kProperties), file));
  }
  auto optional = [&](SectionId id) -> const Section* {
    const auto& slot = sections[static_cast<size_t>(id)];
    return slot.has_value() ? &*slot : nullptr;
  };
  PJRTX_RETURN_IF_ERROR(CheckResources(optional(SectionId::kResource),
                                       optional(SectionId::kResourceOffset),
                                       file));
  file.ir = get(SectionId::kIr).data;
  file.ir_offset = get(SectionId::kIr).offset;
  return file;
}

}  // namespace pjrtx::bytecode
