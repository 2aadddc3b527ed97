// Parsing of `--option name=value` flags into typed create options.
//
// The command line only carries text; the plugin's option schema says what
// type each option has. Typing the value here (rather than passing every
// option as a string) lets the suite test a plugin against exactly what a
// framework would send.

#ifndef PJRTX_TESTS_CONFORMANCE_OPTION_FLAG_H_
#define PJRTX_TESTS_CONFORMANCE_OPTION_FLAG_H_

#include <string>
#include <string_view>

#include "named_value_list.h"

namespace pjrtx::conformance {

// Parses `text` ("name=value") and stores the typed value in `options`.
// The type comes from the schema entry of the same name: int64 (strict
// decimal), bool (true/false/1/0), float, int64 list ("1,2,3"; empty text is
// an empty list) or string (as is). A name absent from `schema` is stored as a
// string so that the plugin itself reports it. Returns false and sets `error`
// (naming the option, the value and the expected type) if the value does not
// parse.
bool ParseOptionFlag(std::string_view text, const NamedValueList& schema,
                     NamedValueList* options, std::string* error);

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_OPTION_FLAG_H_
