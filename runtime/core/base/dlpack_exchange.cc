#include "runtime/core/base/dlpack_exchange.h"

#include <dlpack/dlpack.h>

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/base/element_type.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

// DLPack 0.6 (Debian 12's header) has no boolean or FP8 codes.
absl::StatusOr<DLDataType> ToDLDataType(PJRTX_Buffer_Type type) {
  auto make = [](DLDataTypeCode code, int bits) {
    return DLDataType{static_cast<uint8_t>(code), static_cast<uint8_t>(bits),
                      1};
  };
  switch (type) {
    case PJRTX_Buffer_Type_S8:
      return make(kDLInt, 8);
    case PJRTX_Buffer_Type_S16:
      return make(kDLInt, 16);
    case PJRTX_Buffer_Type_S32:
      return make(kDLInt, 32);
    case PJRTX_Buffer_Type_S64:
      return make(kDLInt, 64);
    case PJRTX_Buffer_Type_U8:
      return make(kDLUInt, 8);
    case PJRTX_Buffer_Type_U16:
      return make(kDLUInt, 16);
    case PJRTX_Buffer_Type_U32:
      return make(kDLUInt, 32);
    case PJRTX_Buffer_Type_U64:
      return make(kDLUInt, 64);
    case PJRTX_Buffer_Type_F16:
      return make(kDLFloat, 16);
    case PJRTX_Buffer_Type_F32:
      return make(kDLFloat, 32);
    case PJRTX_Buffer_Type_F64:
      return make(kDLFloat, 64);
    case PJRTX_Buffer_Type_BF16:
      return make(kDLBfloat, 16);
    case PJRTX_Buffer_Type_C64:
      return make(kDLComplex, 64);
    case PJRTX_Buffer_Type_C128:
      return make(kDLComplex, 128);
    default:
      return absl::UnimplementedError(absl::StrCat(
          "Element type ", ElementTypeName(type),
          " has no DLPack 0.6 type code; exportable types are S8-S64, "
          "U8-U64, F16, BF16, F32, F64, C64, C128"));
  }
}

absl::StatusOr<PJRTX_Buffer_Type> FromDLDataType(DLDataType dtype) {
  if (dtype.lanes != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DLPack tensors with ", dtype.lanes, " lanes are not supported"));
  }
  const int code = dtype.code;
  const int bits = dtype.bits;
  for (int t = PJRTX_Buffer_Type_S8; t <= PJRTX_Buffer_Type_C128; ++t) {
    auto type = static_cast<PJRTX_Buffer_Type>(t);
    absl::StatusOr<DLDataType> candidate = ToDLDataType(type);
    if (candidate.ok() && candidate->code == code && candidate->bits == bits) {
      return type;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("DLPack dtype (code ", code, ", ", bits,
                   " bits) has no pjrtx element type"));
}

// What an exported tensor owns: the memory reference and the shape arrays.
struct ExportContext {
  DLManagedTensor tensor;
  std::shared_ptr<DeviceAllocation> allocation;
  std::vector<int64_t> shape;
};

}  // namespace

absl::StatusOr<ExportedTensor> ExportToDLPack(const Buffer& buffer) {
  const MemorySpec& spec = buffer.client().topology().memories[buffer.memory()];
  if (spec.dlpack_device_type == DlpackDeviceType::kNone) {
    return absl::UnimplementedError(absl::StrCat(
        "Buffers in '", spec.kind,
        "' memory of this plugin cannot be exported through DLPack"));
  }
  PJRTX_ASSIGN_OR_RETURN(DLDataType dtype, ToDLDataType(buffer.type()));
  PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> allocation,
                         buffer.AcquireForUse("ToDLPack"));
  auto* context = new ExportContext();
  context->allocation = std::move(allocation);
  context->shape = buffer.dims();
  DLTensor& t = context->tensor.dl_tensor;
  t.data = reinterpret_cast<void*>(context->allocation->address().value);
  t.device = DLDevice{static_cast<DLDeviceType>(spec.dlpack_device_type),
                      spec.dlpack_device_id};
  t.ndim = static_cast<int>(context->shape.size());
  t.dtype = dtype;
  t.shape = context->shape.data();
  t.strides = nullptr;  // Compact row-major.
  t.byte_offset = 0;
  context->tensor.manager_ctx = context;
  context->tensor.deleter = [](DLManagedTensor* self) {
    delete static_cast<ExportContext*>(self->manager_ctx);
  };
  return ExportedTensor{&context->tensor, buffer.definition_event()};
}

absl::StatusOr<std::unique_ptr<Buffer>> ImportFromDLPack(
    std::shared_ptr<ClientState> client, int device, DLManagedTensor* tensor) {
  if (tensor == nullptr) {
    return absl::InvalidArgumentError("dl_managed_tensor is NULL");
  }
  const DLTensor& t = tensor->dl_tensor;
  const int memory = client->default_memory(device);
  const MemorySpec& spec = client->topology().memories[memory];
  PJRTX_ASSIGN_OR_RETURN(PJRTX_Buffer_Type type, FromDLDataType(t.dtype));
  if (t.ndim < 0 || (t.ndim > 0 && t.shape == nullptr)) {
    return absl::InvalidArgumentError("DLPack tensor has no shape");
  }
  std::vector<int64_t> dims(t.shape, t.shape + t.ndim);
  PJRTX_ASSIGN_OR_RETURN(int64_t count, ElementCount(dims));
  if (t.strides != nullptr && count > 1) {
    int64_t expected = 1;
    for (int i = t.ndim - 1; i >= 0; --i) {
      if (dims[i] != 1 && t.strides[i] != expected) {
        return absl::InvalidArgumentError(absl::StrCat(
            "DLPack tensor stride ", t.strides[i], " of dimension ", i,
            " is not dense row-major (expected ", expected,
            "); copy it to a contiguous tensor first"));
      }
      expected *= dims[i];
    }
  }
  // Where the tensor lives is checked after what it is, so that a
  // malformed tensor is named as such whichever device it claims.
  if (spec.dlpack_device_type == DlpackDeviceType::kNone ||
      t.device.device_type != static_cast<int>(spec.dlpack_device_type) ||
      t.device.device_id != spec.dlpack_device_id) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DLPack tensor on device (type ", t.device.device_type, ", id ",
        t.device.device_id, ") cannot be used in place by device ",
        client->device(device).global_id, ", whose memory is (type ",
        static_cast<int>(spec.dlpack_device_type), ", id ",
        spec.dlpack_device_id, ")"));
  }
  const size_t bytes = static_cast<size_t>(count) * (t.dtype.bits / 8);
  const uintptr_t address = reinterpret_cast<uintptr_t>(t.data) +
                            static_cast<uintptr_t>(t.byte_offset);
  std::shared_ptr<DeviceAllocation> allocation =
      client->memory(memory).WrapExternal(DeviceAddress{address}, bytes,
                                          [tensor] {
                                            if (tensor->deleter != nullptr)
                                              tensor->deleter(tensor);
                                          });
  return Buffer::FromAllocation(std::move(client), device, memory, type,
                                std::move(dims), std::move(allocation),
                                Event::MakeReady());
}

}  // namespace pjrtx
