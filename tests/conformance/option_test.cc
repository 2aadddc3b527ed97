// Client create options against the plugin's option schema: unknown names
// and wrong types are rejected naming the option; the schema's own defaults
// are accepted.

#include <set>
#include <string>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "named_value_list.h"
#include "pjrtx/pjrtx_c_api.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

class OptionTest : public ConformanceTest {};

TEST_F(OptionTest, SchemaIsWellFormed) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_OptionSchema_Args);
  ASSERT_PJRTX_OK(api()->Plugin_OptionSchema(&args));
  if (args.num_options == 0) return;
  ASSERT_NE(args.options, nullptr);
  ASSERT_NE(args.descriptions, nullptr);
  std::set<std::string> names;
  for (size_t i = 0; i < args.num_options; ++i) {
    const PJRTX_NamedValue& option = args.options[i];
    ASSERT_NE(option.name, nullptr) << "option " << i;
    const std::string name(option.name, option.name_size);
    EXPECT_FALSE(name.empty()) << "option " << i;
    EXPECT_TRUE(names.insert(name).second) << "duplicate option " << name;
    EXPECT_GE(option.type, PJRTX_NamedValue_kString) << name;
    EXPECT_LE(option.type, PJRTX_NamedValue_kBool) << name;
    if (option.type == PJRTX_NamedValue_kString && option.value_size > 0) {
      EXPECT_NE(option.value.string_value, nullptr) << name;
    }
    if (option.type == PJRTX_NamedValue_kInt64List && option.value_size > 0) {
      EXPECT_NE(option.value.int64_array_value, nullptr) << name;
    }
    ASSERT_NE(args.descriptions[i], nullptr) << name;
    EXPECT_NE(args.descriptions[i][0], '\0')
        << "option " << name << " has an empty description";
  }
}

TEST_F(OptionTest, UnknownOptionIsRejectedNamingIt) {
  constexpr const char* kName = "pjrtx_conformance_no_such_option";
  NamedValueList options = Plugin().options;
  options.SetString(kName, "1");
  ClientPtr client;
  EXPECT_TRUE(IsError(CreateClient(&client, options),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {kName}));
  EXPECT_EQ(client, nullptr);
}

TEST_F(OptionTest, OptionOfTheWrongTypeIsRejectedNamingIt) {
  const NamedValueList& schema = Plugin().option_schema;
  if (schema.empty()) GTEST_SKIP() << "the plugin declares no options";
  for (const OwnedNamedValue& declared : schema.entries()) {
    NamedValueList options = Plugin().options;
    // Any other type will do; a string is the most likely to be confused
    // with an int64 and the other way round.
    if (declared.type == PJRTX_NamedValue_kString) {
      options.SetInt64(declared.name, 42);
    } else {
      options.SetString(declared.name, "42");
    }
    ClientPtr client;
    EXPECT_TRUE(IsError(CreateClient(&client, options),
                        PJRTX_Error_Code_INVALID_ARGUMENT, {declared.name}))
        << "option " << declared.name << " declared as "
        << NamedValueTypeName(declared.type);
    EXPECT_EQ(client, nullptr);
  }
}

TEST_F(OptionTest, SchemaDefaultsAreAccepted) {
  SkipIfUnavailable();
  if (IsSkipped()) return;
  // Every option at its published default, except those given with
  // --option, which the run needs (e.g. a topology).
  NamedValueList options = Plugin().option_schema;
  for (const OwnedNamedValue& given : Plugin().options.entries()) {
    options.Set(given);
  }
  ClientPtr client;
  ASSERT_PJRTX_OK(CreateClient(&client, options));
  EXPECT_NE(client, nullptr);
}

}  // namespace
}  // namespace pjrtx::conformance
