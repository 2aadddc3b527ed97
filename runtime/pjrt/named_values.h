// Conversions between PJRT's and pjrtx's named values (attributes, create
// options). The type codes are the same in both APIs.
#ifndef PJRTX_RUNTIME_PJRT_NAMED_VALUES_H_
#define PJRTX_RUNTIME_PJRT_NAMED_VALUES_H_

#include <cstddef>
#include <vector>

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/pjrt/pjrt_c_api.h"

namespace pjrtx::pjrt {

// The pjrtx attributes as PJRT clients accept them everywhere: strings,
// int64 and int64 lists as they are, bools as int64 0 or 1; floats are
// dropped. JAX aborts the process on any other type in device attributes.
// The result points into the strings and lists of `values`.
std::vector<PJRT_NamedValue> ToPjrtAttributes(const PJRTX_NamedValue* values,
                                              size_t num_values);

// Client create options as pjrtx named values, pointing into `options`.
// `schema` is the plugin's option schema. Two adjustments, for JAX:
// - an int64 given for an option the schema types float becomes that float
//   (Python passes 1 for 1.0);
// - the options JAX adds for every plugin of a jax.distributed job, which
//   the schema may not declare, become the plugin's own: `node_id` its
//   `process_index` and `num_nodes` its `num_processes`, unless the schema
//   has no such option or the caller gave it (then they are dropped, as is
//   `partition_index`; a plugin like tpu_emu places its process through
//   options of its own).
// Everything else is passed on as it is, for pjrtx to validate.
std::vector<PJRTX_NamedValue> ToPjrtxOptions(const PJRT_NamedValue* options,
                                             size_t num_options,
                                             const PJRTX_NamedValue* schema,
                                             size_t schema_size);

}  // namespace pjrtx::pjrt

#endif  // PJRTX_RUNTIME_PJRT_NAMED_VALUES_H_
