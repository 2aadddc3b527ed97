/*
 * OpenXLA's PJRT C API, version 0.81, as pjrtx declares it.
 *
 * A framework that speaks PJRT (JAX's jaxlib, PyTorch/XLA, ...) loads a
 * plugin, calls its exported `const PJRT_Api* GetPjrtApi(void)` and reaches
 * everything else through the returned table of function pointers. This
 * header is the project's own statement of that interface: every type,
 * field, enumerator, `<Struct>_STRUCT_SIZE` constant and `PJRT_Api` slot
 * has the name, order, layout and value it has in OpenXLA's
 * `xla/pjrt/c/pjrt_c_api.h` at the same version, so a real client can
 * drive a plugin built with it. `tests/runtime/pjrt/pjrt_layout_test.cc`
 * checks that against a copy of the upstream header.
 *
 * Why minor 81 and not a newer one. A client calls, by the minor a plugin
 * reports, only what that minor has, and from some minors on it calls
 * functions unconditionally and aborts the process when they fail. Past 81
 * that list grows with calls this runtime has no use for yet:
 * PJRT_Client_CreateErrorBuffer (82), PJRT_Buffer_CopyRawToHostFuture (84),
 * PJRT_Device_PoisonExecution (85), PJRT_Device_CreateAsyncTrackingEvent
 * (86), PJRT_Executable_GetCompileOptions (87) and
 * PJRT_Buffer_DonateWithControlDependency (88). From 105 (PJRT_Memory) and
 * 107 (PJRT_Error) on, those handles must also start with a vtable pointer
 * that the client dereferences, which would dictate the plugin's object
 * layout. Newer headers only append fields and slots, so a newer client
 * reads the layout below as a prefix of its own; current loaders accept a
 * plugin whose major is 0 and whose minor is 29 or more.
 *
 * Conventions, true of every declaration unless it says otherwise:
 *
 * - Argument structs. Every function takes a single pointer to an argument
 *   struct that starts with `size_t struct_size; PJRT_Extension_Base*
 *   extension_start;`. The caller writes the `<Struct>_STRUCT_SIZE` of the
 *   header it was built with; that is the end of the last field, not
 *   sizeof, so appending a field never changes the value an older caller
 *   writes. A callee takes a larger struct (and ignores what it does not
 *   know) and rejects a smaller one. Inputs come first; fields marked
 *   "out" are written by the callee.
 * - Errors. A function returns NULL on success, or a PJRT_Error* that the
 *   plugin allocated and the caller frees with PJRT_Error_Destroy.
 * - Lifetime. The client owns its devices, memories, device descriptions
 *   and its topology description. The caller owns buffers, executables,
 *   events and errors it receives and destroys each with the matching
 *   Destroy call; destroying NULL does nothing. A returned string or array
 *   lives as long as the object it came from, and strings come with a size
 *   and need not be NUL-terminated.
 * - Handles. The handle types are incomplete here; the plugin defines them.
 *
 * This header is C99 and C++. In C99 the two anonymous unions use the
 * `__extension__` keyword of GCC and Clang, so `-std=c99 -pedantic` accepts
 * them; the names they hold are the same as upstream's.
 */
#ifndef PJRTX_RUNTIME_PJRT_PJRT_C_API_H_
#define PJRTX_RUNTIME_PJRT_PJRT_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Size of `type` up to and including `last_field`. */
#define PJRTX_PJRT_STRUCT_SIZE(type, last_field) \
  (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

/* Fails the build when `last_field` is not the last field of `type`: the
 * struct's size must then be its struct size rounded up to its alignment.
 * C99 has no static assertion, so only C++ and C11 check. */
#if defined(__cplusplus)
#define PJRTX_PJRT_ASSERT_LAST_FIELD(type, last_field)                      \
  static_assert(sizeof(type) == (PJRTX_PJRT_STRUCT_SIZE(type, last_field) + \
                                 alignof(type) - 1) /                       \
                                    alignof(type) * alignof(type),          \
                #type "'s struct size does not end at its last field");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PJRTX_PJRT_ASSERT_LAST_FIELD(type, last_field)                       \
  _Static_assert(sizeof(type) == (PJRTX_PJRT_STRUCT_SIZE(type, last_field) + \
                                  _Alignof(type) - 1) /                      \
                                     _Alignof(type) * _Alignof(type),        \
                 #type "'s struct size does not end at its last field");
#else
#define PJRTX_PJRT_ASSERT_LAST_FIELD(type, last_field)
#endif

/* Defines the enumerator `<type>_STRUCT_SIZE`. Written after each struct
 * and updated whenever a field is appended. */
#define PJRTX_PJRT_DEFINE_STRUCT_SIZE(type, last_field) \
  PJRTX_PJRT_ASSERT_LAST_FIELD(type, last_field)        \
  enum { type##_STRUCT_SIZE = PJRTX_PJRT_STRUCT_SIZE(type, last_field) }

/* Opens an anonymous union (standard in C++ and C11, an extension in C99). */
#if defined(__GNUC__) && !defined(__cplusplus)
#define PJRTX_PJRT_ANONYMOUS_UNION __extension__ union
#else
#define PJRTX_PJRT_ANONYMOUS_UNION union
#endif

/* A PJRT_Api slot: a pointer to the function type `fn`, named `fn` as
 * upstream names it. C++ spells the type `::fn`, since GCC rejects a member
 * that changes the meaning of an unqualified name used in its own
 * declaration. Extension tables declared beside this header may use it. */
#if defined(__cplusplus)
#define PJRTX_PJRT_API_SLOT(fn) ::fn* fn
#else
#define PJRTX_PJRT_API_SLOT(fn) fn* fn
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------- Extensions ------------------------------ */

/* What an extension node is. Upstream assigns these in sequence. */
typedef enum {
  PJRT_Extension_Type_Gpu_Custom_Call = 0,
  PJRT_Extension_Type_Profiler,
  PJRT_Extension_Type_Custom_Partitioner,
  PJRT_Extension_Type_Stream,
  PJRT_Extension_Type_Layouts,
  PJRT_Extension_Type_FFI,
  PJRT_Extension_Type_MemoryDescriptions,
  PJRT_Extension_Type_Triton,
  PJRT_Extension_Type_RawBuffer,
  PJRT_Extension_Type_PhaseCompile,
  PJRT_Extension_Type_Example,
  PJRT_Extension_Type_Unknown,
  PJRT_Extension_Type_CrossHostTransfers,
  PJRT_Extension_Type_ExecutableMetadata,
  PJRT_Extension_Type_Callback,
  PJRT_Extension_Type_HostAllocator,
} PJRT_Extension_Type;

/* Head of every extension: a singly linked chain that starts at an
 * `extension_start` field. A reader finds an extension by `type` and skips
 * types it does not know; each node is owned by whoever built the chain. */
typedef struct PJRT_Extension_Base {
  size_t struct_size;
  PJRT_Extension_Type type;
  struct PJRT_Extension_Base* next;
} PJRT_Extension_Base;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Extension_Base, next);

/* -------------------------------- Version -------------------------------- */

/* Bumped when a field or function is removed, retyped or moved. */
#define PJRT_API_MAJOR 0

/* Bumped when a field is appended to PJRT_Api or to an argument struct. */
#define PJRT_API_MINOR 81

/* The version a plugin was built with: PJRT_API_MAJOR and PJRT_API_MINOR of
 * this header, written into PJRT_Api.pjrt_api_version. */
typedef struct PJRT_Api_Version {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  int major_version; /* out */
  int minor_version; /* out */
} PJRT_Api_Version;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Api_Version, minor_version);

/* --------------------------------- Errors -------------------------------- */

/* A failed call's status. Allocated by the plugin, freed by the caller with
 * PJRT_Error_Destroy. */
typedef struct PJRT_Error PJRT_Error;

typedef struct PJRT_Error_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Error* error;
} PJRT_Error_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Error_Destroy_Args, error);

/* Frees `error`; NULL is allowed. */
typedef void PJRT_Error_Destroy(PJRT_Error_Destroy_Args* args);

typedef struct PJRT_Error_Message_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  const char* message; /* out; lives as long as `error` */
  size_t message_size; /* out */
} PJRT_Error_Message_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Error_Message_Args, message_size);

/* The human-readable text of `error`. */
typedef void PJRT_Error_Message(PJRT_Error_Message_Args* args);

/* Status codes; the numbers are Abseil's (and gRPC's). */
typedef enum {
  PJRT_Error_Code_OK = 0,
  PJRT_Error_Code_CANCELLED = 1,
  PJRT_Error_Code_UNKNOWN = 2,
  PJRT_Error_Code_INVALID_ARGUMENT = 3,
  PJRT_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRT_Error_Code_NOT_FOUND = 5,
  PJRT_Error_Code_ALREADY_EXISTS = 6,
  PJRT_Error_Code_PERMISSION_DENIED = 7,
  PJRT_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRT_Error_Code_FAILED_PRECONDITION = 9,
  PJRT_Error_Code_ABORTED = 10,
  PJRT_Error_Code_OUT_OF_RANGE = 11,
  PJRT_Error_Code_UNIMPLEMENTED = 12,
  PJRT_Error_Code_INTERNAL = 13,
  PJRT_Error_Code_UNAVAILABLE = 14,
  PJRT_Error_Code_DATA_LOSS = 15,
  PJRT_Error_Code_UNAUTHENTICATED = 16
} PJRT_Error_Code;

typedef struct PJRT_Error_GetCode_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  PJRT_Error_Code code; /* out */
} PJRT_Error_GetCode_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Error_GetCode_Args, code);

typedef PJRT_Error* PJRT_Error_GetCode(PJRT_Error_GetCode_Args* args);

/* Made by the plugin and handed to the framework's callbacks (the key-value
 * store), so that a callback can report a failure as a PJRT_Error. It copies
 * `message`, which need only live during the call. */
typedef PJRT_Error* (*PJRT_CallbackError)(PJRT_Error_Code code,
                                          const char* message,
                                          size_t message_size);

/* ------------------------------ Named values ----------------------------- */

typedef enum {
  PJRT_NamedValue_kString = 0,
  PJRT_NamedValue_kInt64,
  PJRT_NamedValue_kInt64List,
  PJRT_NamedValue_kFloat,
  PJRT_NamedValue_kBool,
} PJRT_NamedValue_Type;

/* A typed name/value pair: create options, attributes, cost properties.
 * `type` selects the union member. */
typedef struct PJRT_NamedValue {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  PJRT_NamedValue_Type type;
  PJRTX_PJRT_ANONYMOUS_UNION {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  /* Element count of a string or list; 1 for a scalar. */
  size_t value_size;
} PJRT_NamedValue;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_NamedValue, value_size);

/* --------------------------------- Plugin -------------------------------- */

typedef struct PJRT_Plugin_Initialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
} PJRT_Plugin_Initialize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Plugin_Initialize_Args, extension_start);

/* Called once, before any other function. */
typedef PJRT_Error* PJRT_Plugin_Initialize(PJRT_Plugin_Initialize_Args* args);

typedef struct PJRT_Plugin_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_NamedValue* attributes; /* out; live for the process */
  size_t num_attributes;             /* out */
} PJRT_Plugin_Attributes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Plugin_Attributes_Args, num_attributes);

/* Plugin-wide attributes, e.g. `xla_version`, `stablehlo_current_version`
 * and `stablehlo_minimum_version`. */
typedef PJRT_Error* PJRT_Plugin_Attributes(PJRT_Plugin_Attributes_Args* args);

/* --------------------------------- Events -------------------------------- */

/* Completion of asynchronous work, with its status. Owned by the caller
 * that received it, freed with PJRT_Event_Destroy. */
typedef struct PJRT_Event PJRT_Event;

typedef struct PJRT_Event_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
} PJRT_Event_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Event_Destroy_Args, event);

/* Frees `event`; NULL is allowed. */
typedef PJRT_Error* PJRT_Event_Destroy(PJRT_Event_Destroy_Args* args);

typedef struct PJRT_Event_IsReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  bool is_ready; /* out */
} PJRT_Event_IsReady_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Event_IsReady_Args, is_ready);

/* Whether `event` has completed, successfully or not. */
typedef PJRT_Error* PJRT_Event_IsReady(PJRT_Event_IsReady_Args* args);

typedef struct PJRT_Event_Error_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
} PJRT_Event_Error_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Event_Error_Args, event);

/* The status of a ready event: NULL for success. Each call returns a
 * separate PJRT_Error that the caller frees. */
typedef PJRT_Error* PJRT_Event_Error(PJRT_Event_Error_Args* args);

typedef struct PJRT_Event_Await_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
} PJRT_Event_Await_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Event_Await_Args, event);

/* Blocks until `event` is ready and returns its status. */
typedef PJRT_Error* PJRT_Event_Await(PJRT_Event_Await_Args* args);

/* Runs once an event is ready. It receives, and must destroy, the event's
 * status (NULL for success); `user_arg` stays the caller's. It may run
 * inside PJRT_Event_OnReady when the event is already ready. */
typedef void (*PJRT_Event_OnReadyCallback)(PJRT_Error* error, void* user_arg);

typedef struct PJRT_Event_OnReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  PJRT_Event_OnReadyCallback callback;
  void* user_arg; /* passed to `callback` */
} PJRT_Event_OnReady_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Event_OnReady_Args, user_arg);

/* Registers `callback` to run once `event` is ready. */
typedef PJRT_Error* PJRT_Event_OnReady(PJRT_Event_OnReady_Args* args);

/* --------------------------------- Client -------------------------------- */

/* Handles, defined by the plugin. */
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_ShapeSpec PJRT_ShapeSpec;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_TopologyDescription PJRT_TopologyDescription;
typedef struct PJRT_Executable PJRT_Executable;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_FulfillAliasBufferCallback PJRT_FulfillAliasBufferCallback;
typedef struct PJRT_AsyncHostToDeviceTransferManager
    PJRT_AsyncHostToDeviceTransferManager;
typedef struct PJRT_PhaseCompiler PJRT_PhaseCompiler;

/* A key-value store the framework may lend to PJRT_Client_Create, shared by
 * the processes of a multi-process job. Its callbacks are thread-safe; the
 * framework keeps keys of different plugins apart. */

/* Frees a value returned by the get callback. */
typedef void (*PJRT_KeyValueGetCallback_ValueDeleter)(char* value);

typedef struct PJRT_KeyValueGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  int timeout_in_ms;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;       /* out */
  size_t value_size; /* out */
  /* out; the plugin copies `value`, then calls this on it. */
  PJRT_KeyValueGetCallback_ValueDeleter value_deleter_callback;
} PJRT_KeyValueGetCallback_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_KeyValueGetCallback_Args,
                              value_deleter_callback);

/* Blocks until `key` is present or the timeout passes. */
typedef PJRT_Error* (*PJRT_KeyValueGetCallback)(
    PJRT_KeyValueGetCallback_Args* args);

/* Frees a value returned by the try-get callback. */
typedef void (*PJRT_KeyValueTryGetCallback_ValueDeleter)(char* value);

typedef struct PJRT_KeyValueTryGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;       /* out */
  size_t value_size; /* out */
  /* out; the plugin copies `value`, then calls this on it. */
  PJRT_KeyValueTryGetCallback_ValueDeleter value_deleter_callback;
} PJRT_KeyValueTryGetCallback_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_KeyValueTryGetCallback_Args,
                              value_deleter_callback);

/* Like the get callback, but fails with NOT_FOUND at once when `key` is
 * absent. */
typedef PJRT_Error* (*PJRT_KeyValueTryGetCallback)(
    PJRT_KeyValueTryGetCallback_Args* args);

typedef struct PJRT_KeyValuePutCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  const char* value; /* needs to live only during the call */
  size_t value_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
} PJRT_KeyValuePutCallback_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_KeyValuePutCallback_Args, user_arg);

typedef PJRT_Error* (*PJRT_KeyValuePutCallback)(
    PJRT_KeyValuePutCallback_Args* args);

typedef struct PJRT_Client_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Plugin-specific options. */
  const PJRT_NamedValue* create_options;
  size_t num_options;
  /* The optional key-value store; each `*_user_arg` is passed to its
   * callback. */
  PJRT_KeyValueGetCallback kv_get_callback;
  void* kv_get_user_arg;
  PJRT_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;
  PJRT_Client* client; /* out */
  PJRT_KeyValueTryGetCallback kv_try_get_callback;
  void* kv_try_get_user_arg;
} PJRT_Client_Create_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_Create_Args, kv_try_get_user_arg);

/* Creates a client; the caller destroys it with PJRT_Client_Destroy. */
typedef PJRT_Error* PJRT_Client_Create(PJRT_Client_Create_Args* args);

typedef struct PJRT_Client_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
} PJRT_Client_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_Destroy_Args, client);

/* Shuts down and frees `client`; NULL is allowed. */
typedef PJRT_Error* PJRT_Client_Destroy(PJRT_Client_Destroy_Args* args);

typedef struct PJRT_Client_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_name; /* out; owned by `client` */
  size_t platform_name_size; /* out */
} PJRT_Client_PlatformName_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_PlatformName_Args,
                              platform_name_size);

/* The platform's name, such as "cpu"; frameworks special-case some names. */
typedef PJRT_Error* PJRT_Client_PlatformName(
    PJRT_Client_PlatformName_Args* args);

typedef struct PJRT_Client_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int process_index; /* out */
} PJRT_Client_ProcessIndex_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_ProcessIndex_Args, process_index);

/* This client's process index; 0 when there is one process. */
typedef PJRT_Error* PJRT_Client_ProcessIndex(
    PJRT_Client_ProcessIndex_Args* args);

typedef struct PJRT_Client_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_version; /* out; owned by `client` */
  size_t platform_version_size; /* out */
} PJRT_Client_PlatformVersion_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_PlatformVersion_Args,
                              platform_version_size);

/* Free-form, human-readable version of the platform. */
typedef PJRT_Error* PJRT_Client_PlatformVersion(
    PJRT_Client_PlatformVersion_Args* args);

typedef struct PJRT_Client_TopologyDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_TopologyDescription* topology; /* out; owned by `client` */
} PJRT_Client_TopologyDescription_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_TopologyDescription_Args, topology);

/* The topology the client runs on. The caller must not destroy it. */
typedef PJRT_Error* PJRT_Client_TopologyDescription(
    PJRT_Client_TopologyDescription_Args* args);

typedef struct PJRT_Client_Devices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* devices; /* out; owned by `client` */
  size_t num_devices;          /* out */
} PJRT_Client_Devices_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_Devices_Args, num_devices);

/* Every device of the job, addressable from this process or not. */
typedef PJRT_Error* PJRT_Client_Devices(PJRT_Client_Devices_Args* args);

typedef struct PJRT_Client_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* addressable_devices; /* out; owned by `client` */
  size_t num_addressable_devices;          /* out */
} PJRT_Client_AddressableDevices_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_AddressableDevices_Args,
                              num_addressable_devices);

/* The devices this process can issue work to. */
typedef PJRT_Error* PJRT_Client_AddressableDevices(
    PJRT_Client_AddressableDevices_Args* args);

typedef struct PJRT_Client_LookupDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int id;
  PJRT_Device* device; /* out; owned by `client` */
} PJRT_Client_LookupDevice_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_LookupDevice_Args, device);

/* The device whose PJRT_DeviceDescription_Id is `id`. */
typedef PJRT_Error* PJRT_Client_LookupDevice(
    PJRT_Client_LookupDevice_Args* args);

typedef struct PJRT_Client_LookupAddressableDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int local_hardware_id;
  PJRT_Device* addressable_device; /* out; owned by `client` */
} PJRT_Client_LookupAddressableDevice_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_LookupAddressableDevice_Args,
                              addressable_device);

/* The addressable device whose PJRT_Device_LocalHardwareId is
 * `local_hardware_id`. */
typedef PJRT_Error* PJRT_Client_LookupAddressableDevice(
    PJRT_Client_LookupAddressableDevice_Args* args);

/* State of a process of the job, as the coordination service sees it. */
typedef enum {
  PJRT_ProcessState_kUnspecified = 0,
  PJRT_ProcessState_kUninitialized = 1,
  PJRT_ProcessState_kDisconnected = 2,
  PJRT_ProcessState_kConnected = 3,
  PJRT_ProcessState_kError = 4,
} PJRT_ProcessState;

/* One process of the job. Unlike the argument structs it has no
 * `extension_start`. */
typedef struct PJRT_ProcessInfo {
  size_t struct_size;
  int task_id;
  uint64_t incarnation_id;
  PJRT_ProcessState state;
  int error_code;
  const char* error_message;
  size_t error_message_size;
} PJRT_ProcessInfo;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_ProcessInfo, error_message_size);

typedef struct PJRT_Client_UpdateGlobalProcessInfo_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_ProcessInfo* process_infos;
  size_t num_process_infos;
} PJRT_Client_UpdateGlobalProcessInfo_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_UpdateGlobalProcessInfo_Args,
                              num_process_infos);

/* Tells the client the state of every process of the job. */
typedef PJRT_Error* PJRT_Client_UpdateGlobalProcessInfo(
    PJRT_Client_UpdateGlobalProcessInfo_Args* args);

typedef struct PJRT_Client_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Memory* const* addressable_memories; /* out; owned by `client` */
  size_t num_addressable_memories;          /* out */
} PJRT_Client_AddressableMemories_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_AddressableMemories_Args,
                              num_addressable_memories);

/* The memories this process can transfer to and from. */
typedef PJRT_Error* PJRT_Client_AddressableMemories(
    PJRT_Client_AddressableMemories_Args* args);

/* A program to compile, or one returned by a query. `format` is "hlo"
 * (serialized HloModuleProto), "hlo_with_config" (HloModuleProtoWithConfig)
 * or "mlir" (MLIR bytecode or text; JAX sends a StableHLO portable
 * artifact). Who owns `code` and `format` depends on the call. */
typedef struct PJRT_Program {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  char* code; /* in or out, depending on the call */
  size_t code_size;
  const char* format;
  size_t format_size;
} PJRT_Program;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Program, format_size);

typedef struct PJRT_Client_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  /* Caller-owned; needs to live only during the call. */
  const PJRT_Program* program;
  /* A serialized CompileOptionsProto. */
  const char* compile_options;
  size_t compile_options_size;
  PJRT_LoadedExecutable* executable; /* out */
} PJRT_Client_Compile_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_Compile_Args, executable);

/* Compiles `program` for this client's devices and loads it. */
typedef PJRT_Error* PJRT_Client_Compile(PJRT_Client_Compile_Args* args);

typedef struct PJRT_Client_DefaultDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int num_replicas;
  int num_partitions;
  /* At least num_replicas * num_partitions. */
  size_t default_assignment_size;
  /* Caller-owned array of `default_assignment_size` ints; the call writes
   * the first num_replicas * num_partitions of them. */
  int* default_assignment;
} PJRT_Client_DefaultDeviceAssignment_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_DefaultDeviceAssignment_Args,
                              default_assignment);

/* Device ids for each replica and partition, replica-major. */
typedef PJRT_Error* PJRT_Client_DefaultDeviceAssignment(
    PJRT_Client_DefaultDeviceAssignment_Args* args);

typedef struct PJRT_Client_DmaMap_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* data;
  size_t size;
} PJRT_Client_DmaMap_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_DmaMap_Args, size);

/* Registers host memory for direct transfers. */
typedef PJRT_Error* PJRT_Client_DmaMap(PJRT_Client_DmaMap_Args* args);

typedef struct PJRT_Client_DmaUnmap_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* data;
} PJRT_Client_DmaUnmap_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_DmaUnmap_Args, data);

/* Undoes PJRT_Client_DmaMap. */
typedef PJRT_Error* PJRT_Client_DmaUnmap(PJRT_Client_DmaUnmap_Args* args);

/* Host-to-device transfers into buffers made by
 * PJRT_Client_CreateBuffersForAsyncHostToDevice, filled piece by piece. */

typedef struct PJRT_AsyncHostToDeviceTransferManager_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
} PJRT_AsyncHostToDeviceTransferManager_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_Destroy_Args, transfer_manager);

/* Frees `transfer_manager`; NULL is allowed. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Destroy(
    PJRT_AsyncHostToDeviceTransferManager_Destroy_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_TransferData_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  const void* data;
  int64_t offset;
  int64_t transfer_size;
  bool is_last_transfer;
  PJRT_Event* done_with_h2d_transfer; /* out */
} PJRT_AsyncHostToDeviceTransferManager_TransferData_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_TransferData_Args,
    done_with_h2d_transfer);

/* Copies `transfer_size` bytes of `data` to `offset` of one buffer. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_TransferData(
    PJRT_AsyncHostToDeviceTransferManager_TransferData_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  PJRT_Buffer* buffer_out; /* out; the caller destroys it */
} PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, buffer_out);

typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_Device_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  PJRT_Device* device_out; /* out */
} PJRT_AsyncHostToDeviceTransferManager_Device_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_AsyncHostToDeviceTransferManager_Device_Args,
                              device_out);

typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Device(
    PJRT_AsyncHostToDeviceTransferManager_Device_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  size_t buffer_count; /* out */
} PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args, buffer_count);

typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferCount(
    PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  size_t buffer_size; /* out */
} PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args, buffer_size);

typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferSize(
    PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;
} PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args,
    error_message_size);

/* Puts one buffer into an error state instead of filling it. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_SetBufferError(
    PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args* args);

typedef struct PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  const PJRT_NamedValue* transfer_metadata;
  size_t num_metadata;
} PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args, num_metadata);

typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_AddMetadata(
    PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args* args);

/* Element types. The values are positions, in this order, and match XLA's
 * PrimitiveType only by name. */
typedef enum {
  PJRT_Buffer_Type_INVALID,
  PJRT_Buffer_Type_PRED,
  PJRT_Buffer_Type_S8,
  PJRT_Buffer_Type_S16,
  PJRT_Buffer_Type_S32,
  PJRT_Buffer_Type_S64,
  PJRT_Buffer_Type_U8,
  PJRT_Buffer_Type_U16,
  PJRT_Buffer_Type_U32,
  PJRT_Buffer_Type_U64,
  PJRT_Buffer_Type_F16,
  PJRT_Buffer_Type_F32,
  PJRT_Buffer_Type_F64,
  /* bfloat16: 1 sign, 8 exponent and 7 mantissa bits. */
  PJRT_Buffer_Type_BF16,
  /* Complex numbers as (real, imaginary) pairs of F32 and of F64. */
  PJRT_Buffer_Type_C64,
  PJRT_Buffer_Type_C128,
  /* 8-bit floating-point formats. */
  PJRT_Buffer_Type_F8E5M2,
  PJRT_Buffer_Type_F8E4M3FN,
  PJRT_Buffer_Type_F8E4M3B11FNUZ,
  PJRT_Buffer_Type_F8E5M2FNUZ,
  PJRT_Buffer_Type_F8E4M3FNUZ,
  PJRT_Buffer_Type_S4,
  PJRT_Buffer_Type_U4,
  PJRT_Buffer_Type_TOKEN,
  PJRT_Buffer_Type_S2,
  PJRT_Buffer_Type_U2,
  PJRT_Buffer_Type_F8E4M3,
  PJRT_Buffer_Type_F8E3M4,
  PJRT_Buffer_Type_F8E8M0FNU,
  /* 4-bit microscaling (MX) float. */
  PJRT_Buffer_Type_F4E2M1FN,
} PJRT_Buffer_Type;

/* What PJRT_Client_BufferFromHostBuffer may do with the caller's `data`,
 * and when `done_with_host_buffer` fires. */
typedef enum {
  /* Read during the call only; the event fires before the call returns. */
  PJRT_HostBufferSemantics_kImmutableOnlyDuringCall,
  /* Read until the transfer is done, which the event reports; the caller
   * keeps `data` unchanged until then. */
  PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes,
  /* The buffer may alias `data` for its whole life and never writes it;
   * the event fires when the buffer is freed. */
  PJRT_HostBufferSemantics_kImmutableZeroCopy,
  /* Like kImmutableZeroCopy, but the runtime may also write `data` (e.g. as
   * a donated output). Off the CPU it acts as
   * kImmutableUntilTransferCompletes. */
  PJRT_HostBufferSemantics_kMutableZeroCopy,
} PJRT_HostBufferSemantics;

typedef enum {
  PJRT_Buffer_MemoryLayout_Type_Tiled = 0,
  PJRT_Buffer_MemoryLayout_Type_Strides,
} PJRT_Buffer_MemoryLayout_Type;

/* A dimension order with optional tiling. */
typedef struct PJRT_Buffer_MemoryLayout_Tiled {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Logical dimension numbers, fastest-varying first; one per dimension. */
  const int64_t* minor_to_major;
  size_t minor_to_major_size;
  /* The dimensions of all tiles, one tile after another; tile i has
   * tile_dim_sizes[i] of them. */
  const int64_t* tile_dims;
  const size_t* tile_dim_sizes;
  size_t num_tiles;
} PJRT_Buffer_MemoryLayout_Tiled;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_MemoryLayout_Tiled, num_tiles);

/* Byte strides, one per dimension. A stride may be negative, in which case
 * the data pointer points inside the array rather than at its start. */
typedef struct PJRT_Buffer_MemoryLayout_Strides {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* byte_strides;
  size_t num_byte_strides;
} PJRT_Buffer_MemoryLayout_Strides;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_MemoryLayout_Strides,
                              num_byte_strides);

/* A memory layout: tiled or strided, as `type` says. */
typedef struct PJRT_Buffer_MemoryLayout {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRTX_PJRT_ANONYMOUS_UNION {
    PJRT_Buffer_MemoryLayout_Tiled tiled;
    PJRT_Buffer_MemoryLayout_Strides strides;
  };
  PJRT_Buffer_MemoryLayout_Type type;
} PJRT_Buffer_MemoryLayout;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_MemoryLayout, type);

typedef struct PJRT_Client_CreateUninitializedBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  /* The shape. */
  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;
  /* Where the buffer lives: `memory` when set, else `device`. */
  PJRT_Device* device;
  PJRT_Memory* memory;
  PJRT_Buffer* buffer; /* out; the caller destroys it */
} PJRT_Client_CreateUninitializedBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_CreateUninitializedBuffer_Args,
                              buffer);

/* Allocates a buffer without defining its contents. */
typedef PJRT_Error* PJRT_Client_CreateUninitializedBuffer(
    PJRT_Client_CreateUninitializedBuffer_Args* args);

typedef struct PJRT_Client_CreateAliasBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Memory* memory;
  /* The shape. */
  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;
  PJRT_Buffer* alias_buffer;                                /* out */
  PJRT_FulfillAliasBufferCallback* fulfill_alias_buffer_cb; /* out */
} PJRT_Client_CreateAliasBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_CreateAliasBuffer_Args,
                              fulfill_alias_buffer_cb);

/* Creates a buffer whose storage is supplied later through
 * PJRT_Client_FulfillAliasBuffer with the returned callback. */
typedef PJRT_Error* PJRT_Client_CreateAliasBuffer(
    PJRT_Client_CreateAliasBuffer_Args* args);

typedef struct PJRT_Client_FulfillAliasBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Buffer* buffer;
  PJRT_Error_Code status_code;
  const char* error_message;
  size_t error_message_size;
  PJRT_FulfillAliasBufferCallback* fulfill_alias_buffer_cb;
} PJRT_Client_FulfillAliasBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_FulfillAliasBuffer_Args,
                              fulfill_alias_buffer_cb);

/* Gives an alias buffer its storage (`buffer`), or an error status. */
typedef PJRT_Error* PJRT_Client_FulfillAliasBuffer(
    PJRT_Client_FulfillAliasBuffer_Args* args);

typedef struct PJRT_Client_BufferFromHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  /* The host array; `host_buffer_semantics` says how long it is read. */
  const void* data;
  PJRT_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  /* Byte strides of `data`, one per dimension, or none for a dense
   * row-major array. Negative strides are allowed (see
   * PJRT_Buffer_MemoryLayout_Strides). */
  const int64_t* byte_strides;
  size_t num_byte_strides;
  PJRT_HostBufferSemantics host_buffer_semantics;
  /* Destination: `memory` when set, else `device`. */
  PJRT_Device* device;
  PJRT_Memory* memory;
  /* Layout on the device, or NULL for dense row-major. Read during the call
   * only. */
  PJRT_Buffer_MemoryLayout* device_layout;
  /* out; fires when `data` may be freed. The caller destroys it. */
  PJRT_Event* done_with_host_buffer;
  PJRT_Buffer* buffer; /* out; the caller destroys it */
} PJRT_Client_BufferFromHostBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_BufferFromHostBuffer_Args, buffer);

/* Starts copying a host array into a new device buffer. */
typedef PJRT_Error* PJRT_Client_BufferFromHostBuffer(
    PJRT_Client_BufferFromHostBuffer_Args* args);

typedef struct PJRT_Client_CreateViewOfDeviceBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  /* Device memory the new buffer views without owning it. */
  void* device_buffer_ptr;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
  PJRT_Buffer_MemoryLayout* layout;
  /* Deprecated: ignored when `memory` is set. */
  PJRT_Device* device;
  /* Optional; called when the buffer no longer uses the memory. */
  void (*on_delete_callback)(void* device_buffer_ptr, void* user_arg);
  void* on_delete_callback_arg; /* passed to `on_delete_callback` */
  /* Optional platform stream (e.g. a CUDA stream) that produces the data;
   * the runtime orders its use after that stream's pending work. */
  intptr_t stream;
  PJRT_Buffer* buffer; /* out; the caller destroys it */
  PJRT_Memory* memory;
} PJRT_Client_CreateViewOfDeviceBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Client_CreateViewOfDeviceBuffer_Args,
                              memory);

/* Wraps memory another library allocated (DLPack import). */
typedef PJRT_Error* PJRT_Client_CreateViewOfDeviceBuffer(
    PJRT_Client_CreateViewOfDeviceBuffer_Args* args);

/* A dense array shape. */
struct PJRT_ShapeSpec {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
};
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_ShapeSpec, element_type);

typedef struct PJRT_Client_CreateBuffersForAsyncHostToDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_ShapeSpec* shape_specs;
  size_t num_shape_specs;
  PJRT_Buffer_MemoryLayout** device_layouts; /* optional */
  size_t num_device_layouts;
  PJRT_Memory* memory;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager; /* out */
} PJRT_Client_CreateBuffersForAsyncHostToDevice_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_Client_CreateBuffersForAsyncHostToDevice_Args, transfer_manager);

/* Allocates one buffer per shape and returns the manager that fills them. */
typedef PJRT_Error* PJRT_Client_CreateBuffersForAsyncHostToDevice(
    PJRT_Client_CreateBuffersForAsyncHostToDevice_Args* args);

/* --------------------------- Device descriptions ------------------------- */

/* What a device is, apart from the device itself: descriptions also come
 * from topologies, for compiling without the hardware. */

typedef struct PJRT_DeviceDescription_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int id; /* out */
} PJRT_DeviceDescription_Id_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_Id_Args, id);

/* The device's id, unique among the devices of the job. */
typedef PJRT_Error* PJRT_DeviceDescription_Id(
    PJRT_DeviceDescription_Id_Args* args);

typedef struct PJRT_DeviceDescription_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int process_index; /* out */
} PJRT_DeviceDescription_ProcessIndex_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_ProcessIndex_Args,
                              process_index);

/* The index of the process the device is addressable from. */
typedef PJRT_Error* PJRT_DeviceDescription_ProcessIndex(
    PJRT_DeviceDescription_ProcessIndex_Args* args);

typedef struct PJRT_DeviceDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  size_t num_attributes;             /* out */
  const PJRT_NamedValue* attributes; /* out; owned by the description */
} PJRT_DeviceDescription_Attributes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_Attributes_Args,
                              attributes);

/* Device-specific attributes (e.g. `coords`). JAX accepts only strings,
 * int64 and int64 lists here. */
typedef PJRT_Error* PJRT_DeviceDescription_Attributes(
    PJRT_DeviceDescription_Attributes_Args* args);

typedef struct PJRT_DeviceDescription_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* device_kind; /* out; owned by the description */
  size_t device_kind_size; /* out */
} PJRT_DeviceDescription_Kind_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_Kind_Args,
                              device_kind_size);

/* The vendor's name for this kind of device. */
typedef PJRT_Error* PJRT_DeviceDescription_Kind(
    PJRT_DeviceDescription_Kind_Args* args);

typedef struct PJRT_DeviceDescription_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* debug_string; /* out; owned by the description */
  size_t debug_string_size; /* out */
} PJRT_DeviceDescription_DebugString_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_DebugString_Args,
                              debug_string_size);

/* A verbose, unambiguous description for logs. */
typedef PJRT_Error* PJRT_DeviceDescription_DebugString(
    PJRT_DeviceDescription_DebugString_Args* args);

typedef struct PJRT_DeviceDescription_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* to_string; /* out; owned by the description */
  size_t to_string_size; /* out */
} PJRT_DeviceDescription_ToString_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_DeviceDescription_ToString_Args,
                              to_string_size);

/* A short description for users, such as "TpuDevice(id=0)". */
typedef PJRT_Error* PJRT_DeviceDescription_ToString(
    PJRT_DeviceDescription_ToString_Args* args);

/* -------------------------------- Devices -------------------------------- */

typedef struct PJRT_Device_GetDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_DeviceDescription* device_description; /* out; owned by the client */
} PJRT_Device_GetDescription_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_GetDescription_Args,
                              device_description);

typedef PJRT_Error* PJRT_Device_GetDescription(
    PJRT_Device_GetDescription_Args* args);

typedef struct PJRT_Device_IsAddressable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  bool is_addressable; /* out */
} PJRT_Device_IsAddressable_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_IsAddressable_Args, is_addressable);

/* Whether this process can issue work to `device`. */
typedef PJRT_Error* PJRT_Device_IsAddressable(
    PJRT_Device_IsAddressable_Args* args);

typedef struct PJRT_Device_LocalHardwareId_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  int local_hardware_id; /* out */
} PJRT_Device_LocalHardwareId_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_LocalHardwareId_Args,
                              local_hardware_id);

/* The hardware's own number for the device (e.g. the CUDA ordinal), -1 if
 * it has none; not necessarily dense. */
typedef PJRT_Error* PJRT_Device_LocalHardwareId(
    PJRT_Device_LocalHardwareId_Args* args);

typedef struct PJRT_Device_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* const* memories; /* out; lives as long as `device` */
  size_t num_memories;          /* out */
} PJRT_Device_AddressableMemories_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_AddressableMemories_Args,
                              num_memories);

/* The memories `device` can address. */
typedef PJRT_Error* PJRT_Device_AddressableMemories(
    PJRT_Device_AddressableMemories_Args* args);

typedef struct PJRT_Device_DefaultMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* memory; /* out; lives as long as `device` */
} PJRT_Device_DefaultMemory_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_DefaultMemory_Args, memory);

/* The memory the device's data goes to unless told otherwise. */
typedef PJRT_Error* PJRT_Device_DefaultMemory(
    PJRT_Device_DefaultMemory_Args* args);

/* Allocator statistics; each `*_is_set` says whether the field before it
 * was filled in. */
typedef struct PJRT_Device_MemoryStats_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  int64_t bytes_in_use;                 /* out; always set */
  int64_t peak_bytes_in_use;            /* out */
  bool peak_bytes_in_use_is_set;        /* out */
  int64_t num_allocs;                   /* out */
  bool num_allocs_is_set;               /* out */
  int64_t largest_alloc_size;           /* out */
  bool largest_alloc_size_is_set;       /* out */
  int64_t bytes_limit;                  /* out */
  bool bytes_limit_is_set;              /* out */
  int64_t bytes_reserved;               /* out */
  bool bytes_reserved_is_set;           /* out */
  int64_t peak_bytes_reserved;          /* out */
  bool peak_bytes_reserved_is_set;      /* out */
  int64_t bytes_reservable_limit;       /* out */
  bool bytes_reservable_limit_is_set;   /* out */
  int64_t largest_free_block_bytes;     /* out */
  bool largest_free_block_bytes_is_set; /* out */
  /* Held by the allocator, in use or not. */
  int64_t pool_bytes;          /* out */
  bool pool_bytes_is_set;      /* out */
  int64_t peak_pool_bytes;     /* out */
  bool peak_pool_bytes_is_set; /* out */
} PJRT_Device_MemoryStats_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Device_MemoryStats_Args,
                              peak_pool_bytes_is_set);

/* Memory statistics, for diagnostics; may be UNIMPLEMENTED. */
typedef PJRT_Error* PJRT_Device_MemoryStats(PJRT_Device_MemoryStats_Args* args);

/* -------------------------------- Memories ------------------------------- */

typedef struct PJRT_Memory_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int id; /* out */
} PJRT_Memory_Id_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_Id_Args, id);

/* The memory's id, unique among memories of its kind. */
typedef PJRT_Error* PJRT_Memory_Id(PJRT_Memory_Id_Args* args);

typedef struct PJRT_Memory_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* kind; /* out; lives as long as `memory` */
  size_t kind_size; /* out */
} PJRT_Memory_Kind_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_Kind_Args, kind_size);

/* The memory's kind, e.g. "device" or "pinned_host". */
typedef PJRT_Error* PJRT_Memory_Kind(PJRT_Memory_Kind_Args* args);

typedef struct PJRT_Memory_Kind_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int kind_id; /* out */
} PJRT_Memory_Kind_Id_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_Kind_Id_Args, kind_id);

/* A number for the memory's kind, one per kind. */
typedef PJRT_Error* PJRT_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args);

typedef struct PJRT_Memory_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* debug_string; /* out; lives as long as `memory` */
  size_t debug_string_size; /* out */
} PJRT_Memory_DebugString_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_DebugString_Args, debug_string_size);

typedef PJRT_Error* PJRT_Memory_DebugString(PJRT_Memory_DebugString_Args* args);

typedef struct PJRT_Memory_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* to_string; /* out; lives as long as `memory` */
  size_t to_string_size; /* out */
} PJRT_Memory_ToString_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_ToString_Args, to_string_size);

typedef PJRT_Error* PJRT_Memory_ToString(PJRT_Memory_ToString_Args* args);

typedef struct PJRT_Memory_AddressableByDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  PJRT_Device* const* devices; /* out; lives as long as `memory` */
  size_t num_devices;          /* out */
} PJRT_Memory_AddressableByDevices_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Memory_AddressableByDevices_Args,
                              num_devices);

/* The devices that can address `memory`. */
typedef PJRT_Error* PJRT_Memory_AddressableByDevices(
    PJRT_Memory_AddressableByDevices_Args* args);

/* ----------------------------- Execute context --------------------------- */

/* Extra per-execution data for the plugin; the caller keeps it alive for
 * the executions that use it. */
typedef struct PJRT_ExecuteContext PJRT_ExecuteContext;

typedef struct PJRT_ExecuteContext_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context; /* out */
} PJRT_ExecuteContext_Create_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_ExecuteContext_Create_Args, context);

typedef PJRT_Error* PJRT_ExecuteContext_Create(
    PJRT_ExecuteContext_Create_Args* args);

typedef struct PJRT_ExecuteContext_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context;
} PJRT_ExecuteContext_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_ExecuteContext_Destroy_Args, context);

/* Frees `context`; NULL is allowed. */
typedef PJRT_Error* PJRT_ExecuteContext_Destroy(
    PJRT_ExecuteContext_Destroy_Args* args);

/* ------------------------------ Executables ------------------------------ */

/* A PJRT_Executable is a compiled program that can be queried and
 * serialized; a PJRT_LoadedExecutable is one loaded onto a client's devices
 * and ready to run. */

typedef struct PJRT_Executable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
} PJRT_Executable_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_Destroy_Args, executable);

/* Frees `executable`; NULL is allowed. */
typedef PJRT_Error* PJRT_Executable_Destroy(PJRT_Executable_Destroy_Args* args);

typedef struct PJRT_LoadedExecutable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
} PJRT_LoadedExecutable_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_Destroy_Args, executable);

/* Deletes as PJRT_LoadedExecutable_Delete does, then frees the handle;
 * NULL is allowed. */
typedef PJRT_Error* PJRT_LoadedExecutable_Destroy(
    PJRT_LoadedExecutable_Destroy_Args* args);

typedef struct PJRT_LoadedExecutable_GetExecutable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* loaded_executable;
  PJRT_Executable* executable; /* out; the caller destroys it */
} PJRT_LoadedExecutable_GetExecutable_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_GetExecutable_Args,
                              executable);

/* The queryable executable behind a loaded one, as a new handle. */
typedef PJRT_Error* PJRT_LoadedExecutable_GetExecutable(
    PJRT_LoadedExecutable_GetExecutable_Args* args);

/* Backing storage of a serialized device assignment. */
typedef struct PJRT_DeviceAssignmentSerialized PJRT_DeviceAssignmentSerialized;

typedef struct PJRT_LoadedExecutable_GetDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  /* out; lives as long as `serialized_device_assignment` */
  const char* serialized_bytes;
  size_t serialized_bytes_size; /* out */
  /* out; owns `serialized_bytes` */
  PJRT_DeviceAssignmentSerialized* serialized_device_assignment;
  /* out; the caller calls it once to free `serialized_device_assignment`. */
  void (*serialized_device_assignment_deleter)(
      PJRT_DeviceAssignmentSerialized* da);
} PJRT_LoadedExecutable_GetDeviceAssignment_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_GetDeviceAssignment_Args,
                              serialized_device_assignment_deleter);

/* The executable's device assignment as a serialized DeviceAssignmentProto.
 */
typedef PJRT_Error* PJRT_LoadedExecutable_GetDeviceAssignment(
    PJRT_LoadedExecutable_GetDeviceAssignment_Args* args);

typedef struct PJRT_Executable_Name_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_name; /* out; owned by `executable` */
  size_t executable_name_size; /* out */
} PJRT_Executable_Name_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_Name_Args, executable_name_size);

typedef PJRT_Error* PJRT_Executable_Name(PJRT_Executable_Name_Args* args);

typedef struct PJRT_Executable_NumReplicas_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_replicas; /* out */
} PJRT_Executable_NumReplicas_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_NumReplicas_Args, num_replicas);

typedef PJRT_Error* PJRT_Executable_NumReplicas(
    PJRT_Executable_NumReplicas_Args* args);

typedef struct PJRT_Executable_NumPartitions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_partitions; /* out */
} PJRT_Executable_NumPartitions_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_NumPartitions_Args,
                              num_partitions);

typedef PJRT_Error* PJRT_Executable_NumPartitions(
    PJRT_Executable_NumPartitions_Args* args);

typedef struct PJRT_LoadedExecutable_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_Device* const* addressable_devices; /* out; owned by `executable` */
  size_t num_addressable_devices;          /* out */
} PJRT_LoadedExecutable_AddressableDevices_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_AddressableDevices_Args,
                              num_addressable_devices);

/* The devices the executable runs on, in execution order. */
typedef PJRT_Error* PJRT_LoadedExecutable_AddressableDevices(
    PJRT_LoadedExecutable_AddressableDevices_Args* args);

typedef struct PJRT_Executable_OptimizedProgram_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  /* Caller-owned; the call reads `code` and writes the rest (see below). */
  PJRT_Program* program;
} PJRT_Executable_OptimizedProgram_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_OptimizedProgram_Args, program);

/* The compiled (optimized) program, in two calls: with `program->code` NULL
 * the call sets `code_size`; the caller then points `code` at that many
 * bytes of its own and calls again to have them filled. Either call sets
 * `format` and `format_size`, which the executable owns. */
typedef PJRT_Error* PJRT_Executable_OptimizedProgram(
    PJRT_Executable_OptimizedProgram_Args* args);

typedef struct PJRT_LoadedExecutable_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
} PJRT_LoadedExecutable_Delete_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_Delete_Args, executable);

/* Releases the executable's runtime resources once running executions end,
 * keeping the handle valid for IsDeleted and Destroy only. */
typedef PJRT_Error* PJRT_LoadedExecutable_Delete(
    PJRT_LoadedExecutable_Delete_Args* args);

typedef struct PJRT_LoadedExecutable_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  bool is_deleted; /* out */
} PJRT_LoadedExecutable_IsDeleted_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_IsDeleted_Args, is_deleted);

/* Whether PJRT_LoadedExecutable_Delete was called. */
typedef PJRT_Error* PJRT_LoadedExecutable_IsDeleted(
    PJRT_LoadedExecutable_IsDeleted_Args* args);

/* A piece of data for a send or receive callback; whoever ends up with it
 * calls `deleter(data, deleter_arg)` when done. */
typedef struct PJRT_Chunk {
  void* data;
  size_t size;
  void (*deleter)(void* data, void* deleter_arg);
  void* deleter_arg;
} PJRT_Chunk;

/* The device side of a host-to-device stream fed by a receive callback. */
typedef struct PJRT_CopyToDeviceStream PJRT_CopyToDeviceStream;

/* Declared, never defined: a placeholder of the interface. */
struct PJRT_TransferMetadata;

/* Called for a send op of a running program with one chunk of its data; it
 * must release the chunk and returns NULL or an error made with
 * `callback_error`. */
typedef PJRT_Error* (*PJRT_SendCallback)(PJRT_Chunk* chunk,
                                         PJRT_CallbackError* callback_error,
                                         size_t total_size_in_bytes, bool done,
                                         void* user_arg);
/* Called for a receive op of a running program; it owns `stream` and
 * destroys it with PJRT_CopyToDeviceStream_Destroy when done. */
typedef void (*PJRT_RecvCallback)(PJRT_CopyToDeviceStream* stream,
                                  void* user_arg);

/* Host callbacks bound to a send or receive op by its channel id. */
typedef struct PJRT_SendCallbackInfo {
  int64_t channel_id;
  void* user_arg; /* passed to `send_callback` */
  PJRT_SendCallback send_callback;
} PJRT_SendCallbackInfo;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_SendCallbackInfo, send_callback);

typedef struct PJRT_RecvCallbackInfo {
  int64_t channel_id;
  void* user_arg; /* passed to `recv_callback` */
  PJRT_RecvCallback recv_callback;
} PJRT_RecvCallbackInfo;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_RecvCallbackInfo, recv_callback);

typedef struct PJRT_ExecuteOptions {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Per device (in PJRT_LoadedExecutable_AddressableDevices order), one
   * list of callbacks with one entry per send (receive) op, in any order.
   * The lists need to live during the call only, the callbacks until the
   * execution ends. */
  PJRT_SendCallbackInfo** send_callbacks;
  PJRT_RecvCallbackInfo** recv_callbacks;
  size_t num_send_ops;
  size_t num_recv_ops;
  /* When non-zero, ties together the executions of one multi-device
   * launch, so that mismatched launch orders across hosts can be caught. */
  int launch_id;
  /* Argument indices that must not be donated; caller-owned, read during
   * the call. */
  const int64_t* non_donatable_input_indices;
  size_t num_non_donatable_input_indices;
  PJRT_ExecuteContext* context;
  /* NUL-terminated source location of the framework's call (file:line),
   * for error messages; valid during the call only. */
  const char* call_location;
  /* Incarnation of each task: task task_ids[i] is in incarnation
   * incarnation_ids[i]. */
  size_t num_tasks;
  int* task_ids;
  int64_t* incarnation_ids;
} PJRT_ExecuteOptions;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_ExecuteOptions, incarnation_ids);

typedef struct PJRT_LoadedExecutable_Execute_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_ExecuteOptions* options; /* read during the call only */
  /* argument_lists[device][argument]. */
  PJRT_Buffer* const* const* argument_lists;
  size_t num_devices;
  size_t num_args;
  /* output_lists[device][output]: both levels allocated by the caller, the
   * buffers written by the call and destroyed by the caller. */
  PJRT_Buffer** const* output_lists;
  /* Optional caller array of `num_devices` events, each filled with one
   * that fires when that device's execution ends; left unwritten when the
   * call fails. The caller destroys the events. */
  PJRT_Event** device_complete_events;
  /* When set, runs on this one addressable device only (`num_devices` is
   * 1); the caller then launches the other participants itself. */
  PJRT_Device* execute_device;
} PJRT_LoadedExecutable_Execute_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_Execute_Args,
                              execute_device);

/* Runs the executable on its addressable devices. */
typedef PJRT_Error* PJRT_LoadedExecutable_Execute(
    PJRT_LoadedExecutable_Execute_Args* args);

typedef struct PJRT_Executable_NumOutputs_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs; /* out */
} PJRT_Executable_NumOutputs_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_NumOutputs_Args, num_outputs);

/* Outputs per device. */
typedef PJRT_Error* PJRT_Executable_NumOutputs(
    PJRT_Executable_NumOutputs_Args* args);

typedef struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  int64_t size_in_bytes; /* out */
} PJRT_Executable_SizeOfGeneratedCodeInBytes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args,
                              size_in_bytes);

typedef PJRT_Error* PJRT_Executable_SizeOfGeneratedCodeInBytes(
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args);

typedef struct PJRT_Executable_Fingerprint_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_fingerprint; /* out; owned by `executable` */
  size_t executable_fingerprint_size; /* out */
} PJRT_Executable_Fingerprint_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_Fingerprint_Args,
                              executable_fingerprint_size);

/* Equal for executables compiled from equal inputs (program, options,
 * compiler version); may be UNIMPLEMENTED. */
typedef PJRT_Error* PJRT_Executable_Fingerprint(
    PJRT_Executable_Fingerprint_Args* args);

typedef struct PJRT_Executable_GetCostAnalysis_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_properties;             /* out */
  const PJRT_NamedValue* properties; /* out; owned by `executable` */
} PJRT_Executable_GetCostAnalysis_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_GetCostAnalysis_Args, properties);

/* Platform-specific cost estimates (flops, bytes accessed, ...). */
typedef PJRT_Error* PJRT_Executable_GetCostAnalysis(
    PJRT_Executable_GetCostAnalysis_Args* args);

/* XLA's CompiledMemoryStats: device memory first, then host memory. */
typedef struct PJRT_Executable_GetCompiledMemoryStats_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  int64_t generated_code_size_in_bytes;      /* out */
  int64_t argument_size_in_bytes;            /* out */
  int64_t output_size_in_bytes;              /* out */
  int64_t alias_size_in_bytes;               /* out; arguments reused */
  int64_t temp_size_in_bytes;                /* out */
  int64_t host_generated_code_size_in_bytes; /* out */
  int64_t host_argument_size_in_bytes;       /* out */
  int64_t host_output_size_in_bytes;         /* out */
  int64_t host_alias_size_in_bytes;          /* out */
  int64_t host_temp_size_in_bytes;           /* out */
  int64_t peak_memory_in_bytes;              /* out */
} PJRT_Executable_GetCompiledMemoryStats_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_GetCompiledMemoryStats_Args,
                              peak_memory_in_bytes);

/* Memory an execution will need, to plan ahead. */
typedef PJRT_Error* PJRT_Executable_GetCompiledMemoryStats(
    PJRT_Executable_GetCompiledMemoryStats_Args* args);

typedef struct PJRT_Executable_OutputElementTypes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  PJRT_Buffer_Type* output_types; /* out; owned by `executable` */
  size_t num_output_types;        /* out */
} PJRT_Executable_OutputElementTypes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_OutputElementTypes_Args,
                              num_output_types);

typedef PJRT_Error* PJRT_Executable_OutputElementTypes(
    PJRT_Executable_OutputElementTypes_Args* args);

typedef struct PJRT_Executable_OutputDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;
  /* out; the dimensions of all outputs, one output after another. */
  const int64_t* dims;
  /* out; `num_outputs` entries: the rank of each output. */
  const size_t* dim_sizes;
} PJRT_Executable_OutputDimensions_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_OutputDimensions_Args, dim_sizes);

typedef PJRT_Error* PJRT_Executable_OutputDimensions(
    PJRT_Executable_OutputDimensions_Args* args);

typedef struct PJRT_Executable_OutputMemoryKinds_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;
  const char* const* memory_kinds; /* out; `num_outputs` entries */
  const size_t* memory_kind_sizes; /* out; `num_outputs` entries */
} PJRT_Executable_OutputMemoryKinds_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_OutputMemoryKinds_Args,
                              memory_kind_sizes);

typedef PJRT_Error* PJRT_Executable_OutputMemoryKinds(
    PJRT_Executable_OutputMemoryKinds_Args* args);

/* Backing storage of a serialized executable. */
typedef struct PJRT_SerializedExecutable PJRT_SerializedExecutable;

typedef struct PJRT_Executable_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Executable* executable;
  /* out; lives as long as `serialized_executable` */
  const char* serialized_bytes;
  size_t serialized_bytes_size; /* out */
  /* out; owns `serialized_bytes` */
  PJRT_SerializedExecutable* serialized_executable;
  /* out; the caller calls it once to free `serialized_executable`. */
  void (*serialized_executable_deleter)(PJRT_SerializedExecutable* exec);
} PJRT_Executable_Serialize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_Serialize_Args,
                              serialized_executable_deleter);

/* A platform-specific serialization, not stable across versions. */
typedef PJRT_Error* PJRT_Executable_Serialize(
    PJRT_Executable_Serialize_Args* args);

typedef struct PJRT_Executable_DeserializeAndLoad_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* serialized_executable;
  size_t serialized_executable_size;
  PJRT_LoadedExecutable* loaded_executable; /* out */
  /* A serialized CompileOptionsProto to use instead of the one stored in
   * the executable, or NULL. */
  const char* overridden_serialized_compile_options;
  size_t overridden_serialized_compile_options_size;
} PJRT_Executable_DeserializeAndLoad_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Executable_DeserializeAndLoad_Args,
                              overridden_serialized_compile_options_size);

/* Loads what PJRT_Executable_Serialize produced with the same platform and
 * plugin version. */
typedef PJRT_Error* PJRT_Executable_DeserializeAndLoad(
    PJRT_Executable_DeserializeAndLoad_Args* args);

typedef struct PJRT_LoadedExecutable_Fingerprint_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  const char* executable_fingerprint; /* out; owned by `executable` */
  size_t executable_fingerprint_size; /* out */
} PJRT_LoadedExecutable_Fingerprint_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_LoadedExecutable_Fingerprint_Args,
                              executable_fingerprint_size);

/* Deprecated upstream in favour of PJRT_Executable_Fingerprint. */
typedef PJRT_Error* PJRT_LoadedExecutable_Fingerprint(
    PJRT_LoadedExecutable_Fingerprint_Args* args);

/* -------------------------------- Buffers -------------------------------- */

typedef struct PJRT_Buffer_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
} PJRT_Buffer_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_Destroy_Args, buffer);

/* Deletes as PJRT_Buffer_Delete does, then frees the handle; NULL is
 * allowed. */
typedef PJRT_Error* PJRT_Buffer_Destroy(PJRT_Buffer_Destroy_Args* args);

typedef struct PJRT_Buffer_ElementType_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_Type type; /* out */
} PJRT_Buffer_ElementType_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_ElementType_Args, type);

typedef PJRT_Error* PJRT_Buffer_ElementType(PJRT_Buffer_ElementType_Args* args);

typedef struct PJRT_Buffer_Dimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* dims; /* out; lives as long as `buffer` */
  size_t num_dims;     /* out */
} PJRT_Buffer_Dimensions_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_Dimensions_Args, num_dims);

typedef PJRT_Error* PJRT_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args);

typedef struct PJRT_Buffer_UnpaddedDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* unpadded_dims; /* out; lives as long as `buffer` */
  size_t num_dims;              /* out */
} PJRT_Buffer_UnpaddedDimensions_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_UnpaddedDimensions_Args, num_dims);

/* The dimensions without padding: smaller than PJRT_Buffer_Dimensions only
 * for dynamic dimensions padded to a static bound. */
typedef PJRT_Error* PJRT_Buffer_UnpaddedDimensions(
    PJRT_Buffer_UnpaddedDimensions_Args* args);

typedef struct PJRT_Buffer_DynamicDimensionIndices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const size_t* dynamic_dim_indices; /* out; lives as long as `buffer` */
  size_t num_dynamic_dims;           /* out */
} PJRT_Buffer_DynamicDimensionIndices_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_DynamicDimensionIndices_Args,
                              num_dynamic_dims);

/* Which dimensions are dynamic (sized at run time); none if all are
 * static. */
typedef PJRT_Error* PJRT_Buffer_DynamicDimensionIndices(
    PJRT_Buffer_DynamicDimensionIndices_Args* args);

typedef struct PJRT_Buffer_GetMemoryLayout_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_MemoryLayout layout; /* out; its arrays are owned by `buffer` */
} PJRT_Buffer_GetMemoryLayout_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_GetMemoryLayout_Args, layout);

/* The buffer's layout. Deprecated upstream in favour of the layouts
 * extension. */
typedef PJRT_Error* PJRT_Buffer_GetMemoryLayout(
    PJRT_Buffer_GetMemoryLayout_Args* args);

typedef struct PJRT_Buffer_ToHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* src;
  /* Layout of `dst`, or NULL for the buffer's own. Read during the call
   * only. */
  PJRT_Buffer_MemoryLayout* host_layout;
  /* NULL to ask for the size only; it is then written to `dst_size`.
   * Otherwise `dst_size` bytes of caller memory, at least that size. */
  void* dst;
  size_t dst_size;
  PJRT_Event* event; /* out; fires when the copy is done */
} PJRT_Buffer_ToHostBuffer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_ToHostBuffer_Args, event);

/* Starts copying the buffer into caller memory. */
typedef PJRT_Error* PJRT_Buffer_ToHostBuffer(
    PJRT_Buffer_ToHostBuffer_Args* args);

typedef struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  size_t on_device_size_in_bytes; /* out */
} PJRT_Buffer_OnDeviceSizeInBytes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_OnDeviceSizeInBytes_Args,
                              on_device_size_in_bytes);

/* Bytes of device storage the buffer takes. */
typedef PJRT_Error* PJRT_Buffer_OnDeviceSizeInBytes(
    PJRT_Buffer_OnDeviceSizeInBytes_Args* args);

typedef struct PJRT_Buffer_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
} PJRT_Buffer_Delete_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_Delete_Args, buffer);

/* Releases the buffer's device memory once pending work on it ends, keeping
 * the handle valid for IsDeleted and Destroy only. */
typedef PJRT_Error* PJRT_Buffer_Delete(PJRT_Buffer_Delete_Args* args);

typedef struct PJRT_Buffer_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_deleted; /* out */
} PJRT_Buffer_IsDeleted_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_IsDeleted_Args, is_deleted);

/* Whether PJRT_Buffer_Delete was called. */
typedef PJRT_Error* PJRT_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args);

typedef struct PJRT_Buffer_CopyRawToHost_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  void* dst;
  int64_t offset;
  int64_t transfer_size;
  PJRT_Event* event; /* out */
} PJRT_Buffer_CopyRawToHost_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_CopyRawToHost_Args, event);

/* Copies `transfer_size` bytes of the buffer's storage from `offset`. */
typedef PJRT_Error* PJRT_Buffer_CopyRawToHost(
    PJRT_Buffer_CopyRawToHost_Args* args);

typedef struct PJRT_Buffer_CopyToDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* dst_device;
  PJRT_Buffer* dst_buffer; /* out; the caller destroys it */
} PJRT_Buffer_CopyToDevice_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_CopyToDevice_Args, dst_buffer);

/* Copies the buffer to another device of the same client; fails when it is
 * already there. */
typedef PJRT_Error* PJRT_Buffer_CopyToDevice(
    PJRT_Buffer_CopyToDevice_Args* args);

typedef struct PJRT_Buffer_CopyToMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* dst_memory;
  PJRT_Buffer* dst_buffer; /* out; the caller destroys it */
} PJRT_Buffer_CopyToMemory_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_CopyToMemory_Args, dst_buffer);

/* Copies the buffer to another memory of the same client; fails when it is
 * already there. */
typedef PJRT_Error* PJRT_Buffer_CopyToMemory(
    PJRT_Buffer_CopyToMemory_Args* args);

typedef struct PJRT_Buffer_IsOnCpu_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_on_cpu; /* out */
} PJRT_Buffer_IsOnCpu_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_IsOnCpu_Args, is_on_cpu);

/* Whether the buffer is in host memory the framework may read directly. */
typedef PJRT_Error* PJRT_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args);

typedef struct PJRT_Buffer_Device_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* device; /* out */
} PJRT_Buffer_Device_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_Device_Args, device);

typedef PJRT_Error* PJRT_Buffer_Device(PJRT_Buffer_Device_Args* args);

typedef struct PJRT_Buffer_Memory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* memory; /* out */
} PJRT_Buffer_Memory_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_Memory_Args, memory);

typedef PJRT_Error* PJRT_Buffer_Memory(PJRT_Buffer_Memory_Args* args);

typedef struct PJRT_Buffer_ReadyEvent_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Event* event; /* out; the caller destroys it */
} PJRT_Buffer_ReadyEvent_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_ReadyEvent_Args, event);

/* An event that fires when the buffer's data is ready or has failed. For a
 * buffer already deleted or donated it fires at once with an error; a
 * deletion after the call does not change it. */
typedef PJRT_Error* PJRT_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args);

typedef struct PJRT_Buffer_UnsafePointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  uintptr_t buffer_pointer; /* out */
} PJRT_Buffer_UnsafePointer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_UnsafePointer_Args, buffer_pointer);

/* A platform-dependent address of the buffer's storage, usually its device
 * address. */
typedef PJRT_Error* PJRT_Buffer_UnsafePointer(
    PJRT_Buffer_UnsafePointer_Args* args);

typedef struct PJRT_Buffer_IncreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
} PJRT_Buffer_IncreaseExternalReferenceCount_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_IncreaseExternalReferenceCount_Args,
                              buffer);

/* Pins the buffer's storage while another framework (NumPy, DLPack) shares
 * it: the runtime neither frees nor moves it until the count drops to 0. */
typedef PJRT_Error* PJRT_Buffer_IncreaseExternalReferenceCount(
    PJRT_Buffer_IncreaseExternalReferenceCount_Args* args);

typedef struct PJRT_Buffer_DecreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
} PJRT_Buffer_DecreaseExternalReferenceCount_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_DecreaseExternalReferenceCount_Args,
                              buffer);

/* Undoes one increase; an error when the count is already 0. */
typedef PJRT_Error* PJRT_Buffer_DecreaseExternalReferenceCount(
    PJRT_Buffer_DecreaseExternalReferenceCount_Args* args);

typedef struct PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  void* device_memory_ptr; /* out */
} PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args,
                              device_memory_ptr);

/* The storage's device pointer; stays valid only while the external
 * reference count is above 0. */
typedef PJRT_Error* PJRT_Buffer_OpaqueDeviceMemoryDataPointer(
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args);

/* --------------------------- Copy-to-device streams ---------------------- */

typedef struct PJRT_CopyToDeviceStream_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
} PJRT_CopyToDeviceStream_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_CopyToDeviceStream_Destroy_Args, stream);

/* Frees `stream`; NULL is allowed. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_Destroy(
    PJRT_CopyToDeviceStream_Destroy_Args* args);

typedef struct PJRT_CopyToDeviceStream_AddChunk_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  PJRT_Chunk* chunk;             /* taken over: the stream calls its deleter */
  PJRT_Event* transfer_complete; /* out */
} PJRT_CopyToDeviceStream_AddChunk_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_CopyToDeviceStream_AddChunk_Args,
                              transfer_complete);

/* Starts copying one more chunk to the device. The event fails when the
 * chunk overruns the total, arrives after the end, or is not a multiple of
 * the granule size. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_AddChunk(
    PJRT_CopyToDeviceStream_AddChunk_Args* args);

typedef struct PJRT_CopyToDeviceStream_TotalBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t total_bytes; /* out */
} PJRT_CopyToDeviceStream_TotalBytes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_CopyToDeviceStream_TotalBytes_Args,
                              total_bytes);

/* Bytes the stream expects in all. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_TotalBytes(
    PJRT_CopyToDeviceStream_TotalBytes_Args* args);

typedef struct PJRT_CopyToDeviceStream_GranuleSize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t granule_size_in_bytes; /* out */
} PJRT_CopyToDeviceStream_GranuleSize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_CopyToDeviceStream_GranuleSize_Args,
                              granule_size_in_bytes);

/* Every chunk's size is a multiple of this. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_GranuleSize(
    PJRT_CopyToDeviceStream_GranuleSize_Args* args);

typedef struct PJRT_CopyToDeviceStream_CurrentBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t current_bytes; /* out */
} PJRT_CopyToDeviceStream_CurrentBytes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_CopyToDeviceStream_CurrentBytes_Args,
                              current_bytes);

/* Bytes transferred or queued so far. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_CurrentBytes(
    PJRT_CopyToDeviceStream_CurrentBytes_Args* args);

/* ---------------------------- Topology descriptions ---------------------- */

typedef struct PJRT_TopologyDescription_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* topology_name;
  size_t topology_name_size;
  /* Plugin-specific options. */
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_TopologyDescription* topology; /* out; the caller destroys it */
} PJRT_TopologyDescription_Create_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_Create_Args, topology);

/* Describes a topology by name, without the hardware (for compiling
 * ahead of time). */
typedef PJRT_Error* PJRT_TopologyDescription_Create(
    PJRT_TopologyDescription_Create_Args* args);

typedef struct PJRT_TopologyDescription_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
} PJRT_TopologyDescription_Destroy_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_Destroy_Args, topology);

/* Frees a topology from PJRT_TopologyDescription_Create or _Deserialize;
 * NULL is allowed. */
typedef PJRT_Error* PJRT_TopologyDescription_Destroy(
    PJRT_TopologyDescription_Destroy_Args* args);

typedef struct PJRT_TopologyDescription_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const char* platform_version; /* out; owned by `topology` */
  size_t platform_version_size; /* out */
} PJRT_TopologyDescription_PlatformVersion_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_PlatformVersion_Args,
                              platform_version_size);

typedef PJRT_Error* PJRT_TopologyDescription_PlatformVersion(
    PJRT_TopologyDescription_PlatformVersion_Args* args);

typedef struct PJRT_TopologyDescription_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  const char* platform_name; /* out; owned by `topology` */
  size_t platform_name_size; /* out */
} PJRT_TopologyDescription_PlatformName_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_PlatformName_Args,
                              platform_name_size);

typedef PJRT_Error* PJRT_TopologyDescription_PlatformName(
    PJRT_TopologyDescription_PlatformName_Args* args);

typedef struct PJRT_TopologyDescription_GetDeviceDescriptions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  /* out; owned by `topology` */
  PJRT_DeviceDescription* const* descriptions;
  size_t num_descriptions; /* out */
} PJRT_TopologyDescription_GetDeviceDescriptions_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(
    PJRT_TopologyDescription_GetDeviceDescriptions_Args, num_descriptions);

/* Every device of the topology, in an order that stays the same within a
 * process. */
typedef PJRT_Error* PJRT_TopologyDescription_GetDeviceDescriptions(
    PJRT_TopologyDescription_GetDeviceDescriptions_Args* args);

/* Backing storage of a serialized topology. */
typedef struct PJRT_SerializedTopology PJRT_SerializedTopology;

typedef struct PJRT_TopologyDescription_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  /* out; lives as long as `serialized_topology` */
  const char* serialized_bytes;
  size_t serialized_bytes_size;                 /* out */
  PJRT_SerializedTopology* serialized_topology; /* out */
  /* out; the caller calls it exactly once to free `serialized_topology`. */
  void (*serialized_topology_deleter)(
      PJRT_SerializedTopology* serialized_topology);
} PJRT_TopologyDescription_Serialize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_Serialize_Args,
                              serialized_topology_deleter);

/* A serialization of the topology, e.g. for compilation cache keys. */
typedef PJRT_Error* PJRT_TopologyDescription_Serialize(
    PJRT_TopologyDescription_Serialize_Args* args);

typedef struct PJRT_TopologyDescription_Deserialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* serialized_topology;
  size_t serialized_topology_size;
  PJRT_TopologyDescription* topology; /* out; the caller destroys it */
} PJRT_TopologyDescription_Deserialize_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_Deserialize_Args,
                              topology);

typedef PJRT_Error* PJRT_TopologyDescription_Deserialize(
    PJRT_TopologyDescription_Deserialize_Args* args);

typedef struct PJRT_TopologyDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const PJRT_NamedValue* attributes; /* out; live as long as `topology` */
  size_t num_attributes;             /* out */
} PJRT_TopologyDescription_Attributes_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_TopologyDescription_Attributes_Args,
                              num_attributes);

/* Platform-specific attributes of the topology. */
typedef PJRT_Error* PJRT_TopologyDescription_Attributes(
    PJRT_TopologyDescription_Attributes_Args* args);

typedef struct PJRT_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  /* Caller-owned; needs to live only during the call. */
  const PJRT_Program* program;
  /* A serialized CompileOptionsProto. */
  const char* compile_options;
  size_t compile_options_size;
  /* Optional, for performance-guided optimization. */
  PJRT_Client* client;
  PJRT_Executable* executable; /* out; the caller destroys it */
} PJRT_Compile_Args;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Compile_Args, executable);

/* Compiles for a topology, without loading; a compatible client loads the
 * result before it can run. */
typedef PJRT_Error* PJRT_Compile(PJRT_Compile_Args* args);

/* ------------------------------- The table ------------------------------- */

/* What GetPjrtApi returns: the version, then one slot per function, in
 * upstream's order. New slots are only ever appended. A plugin fills every
 * slot; the table lives for the process. */
typedef struct PJRT_Api {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  PJRT_Api_Version pjrt_api_version;

  PJRTX_PJRT_API_SLOT(PJRT_Error_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Error_Message);
  PJRTX_PJRT_API_SLOT(PJRT_Error_GetCode);

  PJRTX_PJRT_API_SLOT(PJRT_Plugin_Initialize);
  PJRTX_PJRT_API_SLOT(PJRT_Plugin_Attributes);

  PJRTX_PJRT_API_SLOT(PJRT_Event_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Event_IsReady);
  PJRTX_PJRT_API_SLOT(PJRT_Event_Error);
  PJRTX_PJRT_API_SLOT(PJRT_Event_Await);
  PJRTX_PJRT_API_SLOT(PJRT_Event_OnReady);

  PJRTX_PJRT_API_SLOT(PJRT_Client_Create);
  PJRTX_PJRT_API_SLOT(PJRT_Client_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Client_PlatformName);
  PJRTX_PJRT_API_SLOT(PJRT_Client_ProcessIndex);
  PJRTX_PJRT_API_SLOT(PJRT_Client_PlatformVersion);
  PJRTX_PJRT_API_SLOT(PJRT_Client_Devices);
  PJRTX_PJRT_API_SLOT(PJRT_Client_AddressableDevices);
  PJRTX_PJRT_API_SLOT(PJRT_Client_LookupDevice);
  PJRTX_PJRT_API_SLOT(PJRT_Client_LookupAddressableDevice);
  PJRTX_PJRT_API_SLOT(PJRT_Client_AddressableMemories);
  PJRTX_PJRT_API_SLOT(PJRT_Client_Compile);
  PJRTX_PJRT_API_SLOT(PJRT_Client_DefaultDeviceAssignment);
  PJRTX_PJRT_API_SLOT(PJRT_Client_BufferFromHostBuffer);

  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_Id);
  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_ProcessIndex);
  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_Attributes);
  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_Kind);
  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_DebugString);
  PJRTX_PJRT_API_SLOT(PJRT_DeviceDescription_ToString);

  PJRTX_PJRT_API_SLOT(PJRT_Device_GetDescription);
  PJRTX_PJRT_API_SLOT(PJRT_Device_IsAddressable);
  PJRTX_PJRT_API_SLOT(PJRT_Device_LocalHardwareId);
  PJRTX_PJRT_API_SLOT(PJRT_Device_AddressableMemories);
  PJRTX_PJRT_API_SLOT(PJRT_Device_DefaultMemory);
  PJRTX_PJRT_API_SLOT(PJRT_Device_MemoryStats);

  PJRTX_PJRT_API_SLOT(PJRT_Memory_Id);
  PJRTX_PJRT_API_SLOT(PJRT_Memory_Kind);
  PJRTX_PJRT_API_SLOT(PJRT_Memory_DebugString);
  PJRTX_PJRT_API_SLOT(PJRT_Memory_ToString);
  PJRTX_PJRT_API_SLOT(PJRT_Memory_AddressableByDevices);

  PJRTX_PJRT_API_SLOT(PJRT_Executable_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_Name);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_NumReplicas);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_NumPartitions);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_NumOutputs);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_SizeOfGeneratedCodeInBytes);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_GetCostAnalysis);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_OutputMemoryKinds);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_OptimizedProgram);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_Serialize);

  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_GetExecutable);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_AddressableDevices);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_Delete);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_IsDeleted);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_Execute);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_DeserializeAndLoad);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_Fingerprint);

  PJRTX_PJRT_API_SLOT(PJRT_Buffer_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_ElementType);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_Dimensions);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_UnpaddedDimensions);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_DynamicDimensionIndices);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_GetMemoryLayout);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_OnDeviceSizeInBytes);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_Device);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_Memory);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_Delete);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_IsDeleted);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_CopyToDevice);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_ToHostBuffer);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_IsOnCpu);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_ReadyEvent);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_UnsafePointer);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_IncreaseExternalReferenceCount);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_DecreaseExternalReferenceCount);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_OpaqueDeviceMemoryDataPointer);

  PJRTX_PJRT_API_SLOT(PJRT_CopyToDeviceStream_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_CopyToDeviceStream_AddChunk);
  PJRTX_PJRT_API_SLOT(PJRT_CopyToDeviceStream_TotalBytes);
  PJRTX_PJRT_API_SLOT(PJRT_CopyToDeviceStream_GranuleSize);
  PJRTX_PJRT_API_SLOT(PJRT_CopyToDeviceStream_CurrentBytes);

  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_Create);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_PlatformName);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_PlatformVersion);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_GetDeviceDescriptions);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_Serialize);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_Attributes);

  PJRTX_PJRT_API_SLOT(PJRT_Compile);

  /* Appended after the groups above were laid out. */
  PJRTX_PJRT_API_SLOT(PJRT_Executable_OutputElementTypes);
  PJRTX_PJRT_API_SLOT(PJRT_Executable_OutputDimensions);

  PJRTX_PJRT_API_SLOT(PJRT_Buffer_CopyToMemory);

  PJRTX_PJRT_API_SLOT(PJRT_Client_CreateViewOfDeviceBuffer);

  PJRTX_PJRT_API_SLOT(PJRT_Executable_Fingerprint);

  PJRTX_PJRT_API_SLOT(PJRT_Client_TopologyDescription);

  PJRTX_PJRT_API_SLOT(PJRT_Executable_GetCompiledMemoryStats);

  PJRTX_PJRT_API_SLOT(PJRT_Memory_Kind_Id);

  PJRTX_PJRT_API_SLOT(PJRT_ExecuteContext_Create);
  PJRTX_PJRT_API_SLOT(PJRT_ExecuteContext_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_Buffer_CopyRawToHost);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_Destroy);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_TransferData);
  PJRTX_PJRT_API_SLOT(PJRT_Client_CreateBuffersForAsyncHostToDevice);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_Device);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_BufferCount);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_BufferSize);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_SetBufferError);
  PJRTX_PJRT_API_SLOT(PJRT_AsyncHostToDeviceTransferManager_AddMetadata);
  PJRTX_PJRT_API_SLOT(PJRT_Client_DmaMap);
  PJRTX_PJRT_API_SLOT(PJRT_Client_DmaUnmap);

  PJRTX_PJRT_API_SLOT(PJRT_Client_CreateUninitializedBuffer);
  PJRTX_PJRT_API_SLOT(PJRT_Client_UpdateGlobalProcessInfo);
  PJRTX_PJRT_API_SLOT(PJRT_TopologyDescription_Deserialize);
  PJRTX_PJRT_API_SLOT(PJRT_Client_CreateAliasBuffer);
  PJRTX_PJRT_API_SLOT(PJRT_Client_FulfillAliasBuffer);
  PJRTX_PJRT_API_SLOT(PJRT_LoadedExecutable_GetDeviceAssignment);
} PJRT_Api;
PJRTX_PJRT_DEFINE_STRUCT_SIZE(PJRT_Api,
                              PJRT_LoadedExecutable_GetDeviceAssignment);

#ifdef __cplusplus
}
#endif

#endif /* PJRTX_RUNTIME_PJRT_PJRT_C_API_H_ */
