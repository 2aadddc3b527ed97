/*
 * pjrtx C ABI.
 *
 * One stable C interface through which a framework drives any device plugin.
 * A plugin is a shared library exporting GetPjrtxApi(), which returns a
 * table of function pointers (PJRTX_Api), and OpenXLA's GetPjrtApi() beside
 * it (the PJRT C API over the same objects), nothing else. Everything else
 * is reached through the tables.
 *
 * Conventions (they hold for every declaration below unless it says
 * otherwise):
 *
 * - Versioning. PJRTX_API_MAJOR changes when a field is removed, reordered
 *   or retyped; PJRTX_API_MINOR when a field is appended to PJRTX_Api or to
 *   an argument struct. A caller requires major == and minor >= what it
 *   was built against.
 * - Argument structs. Every function takes one pointer to an argument struct
 *   that starts with `size_t struct_size; PJRTX_Extension_Base*
 *   extension_start;`. The caller sets struct_size to the
 *   <Struct>_STRUCT_SIZE constant of the header it was compiled with. A
 *   callee rejects a struct smaller than it knows with INVALID_ARGUMENT naming
 *   both sizes, and accepts a larger one (it ignores the fields it does not
 *   know). A rejected struct is not written at all. Inputs come first,
 *   outputs (marked "out") last; outputs are zeroed by the callee on entry.
 * - Errors. A function returns NULL on success and a PJRTX_Error* otherwise.
 *   The caller owns the error and frees it with PJRTX_Error_Destroy.
 * - Threading. Every function is thread-safe. Destroying a handle twice, or
 *   while another thread uses it, is undefined. Destroying NULL is a no-op.
 * - Ownership. The client owns its devices, memories and topology
 *   description; they live until the client is destroyed. The caller owns
 *   buffers, events and errors. Strings returned by a query live as long as
 *   the object they came from; they are not NUL-terminated unless stated,
 *   so use the returned size.
 * - Handles of another plugin or client are rejected with INVALID_ARGUMENT
 *   where that can be detected.
 *
 * The header is C99 (no anonymous unions, no enum values above INT_MAX) and
 * also compiles as C++.
 */
#ifndef PJRTX_PJRTX_C_API_H_
#define PJRTX_PJRTX_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PJRTX_API_MAJOR 0
#define PJRTX_API_MINOR 6

/* Size of a struct up to and including its last field: what a caller passes
 * in struct_size. Trailing padding is excluded so that appending a field
 * never changes the size an older caller wrote. */
#define PJRTX_STRUCT_SIZE(struct_type, last_field) \
  (offsetof(struct_type, last_field) + sizeof(((struct_type*)0)->last_field))

/* Defines <struct_type>_STRUCT_SIZE. */
#define PJRTX_DEFINE_STRUCT_SIZE(struct_type, last_field) \
  enum {                                                  \
    struct_type##_STRUCT_SIZE =                           \
        (int)PJRTX_STRUCT_SIZE(struct_type, last_field)   \
  }

/* ------------------------------- Extensions ------------------------------ */

/* Extension types. Values below 1000 are reserved for this header; a
 * third-party extension picks a value of 1000 or more. */
typedef enum {
  PJRTX_Extension_Type_Reserved = 0,
  PJRTX_Extension_Type_FirstThirdParty = 1000
} PJRTX_Extension_Type;

/* A node of a singly linked chain of extensions. A table or argument struct
 * points at the first node through `extension_start`; a consumer walks the
 * chain and skips types it does not know. */
typedef struct PJRTX_Extension_Base {
  size_t struct_size;
  PJRTX_Extension_Type type;
  struct PJRTX_Extension_Base* next;
} PJRTX_Extension_Base;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Extension_Base, next);

/* ------------------------------ Opaque handles ---------------------------- */

typedef struct PJRTX_Error PJRTX_Error;
typedef struct PJRTX_Event PJRTX_Event;
typedef struct PJRTX_Client PJRTX_Client;
typedef struct PJRTX_Device PJRTX_Device;
typedef struct PJRTX_DeviceDescription PJRTX_DeviceDescription;
typedef struct PJRTX_Memory PJRTX_Memory;
typedef struct PJRTX_TopologyDescription PJRTX_TopologyDescription;
typedef struct PJRTX_Buffer PJRTX_Buffer;
typedef struct PJRTX_LoadedExecutable PJRTX_LoadedExecutable;

/* --------------------------------- Errors -------------------------------- */

/* Status codes; numerically the absl/gRPC codes. */
typedef enum {
  PJRTX_Error_Code_OK = 0,
  PJRTX_Error_Code_CANCELLED = 1,
  PJRTX_Error_Code_UNKNOWN = 2,
  PJRTX_Error_Code_INVALID_ARGUMENT = 3,
  PJRTX_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRTX_Error_Code_NOT_FOUND = 5,
  PJRTX_Error_Code_ALREADY_EXISTS = 6,
  PJRTX_Error_Code_PERMISSION_DENIED = 7,
  PJRTX_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRTX_Error_Code_FAILED_PRECONDITION = 9,
  PJRTX_Error_Code_ABORTED = 10,
  PJRTX_Error_Code_OUT_OF_RANGE = 11,
  PJRTX_Error_Code_UNIMPLEMENTED = 12,
  PJRTX_Error_Code_INTERNAL = 13,
  PJRTX_Error_Code_UNAVAILABLE = 14,
  PJRTX_Error_Code_DATA_LOSS = 15,
  PJRTX_Error_Code_UNAUTHENTICATED = 16
} PJRTX_Error_Code;

/* Frees `error`. NULL is a no-op. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Error* error;
} PJRTX_Error_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Error_Destroy_Args, error);
typedef void PJRTX_Error_Destroy(PJRTX_Error_Destroy_Args* args);

/* The error's message; valid until the error is destroyed. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const PJRTX_Error* error;
  const char* message; /* out */
  size_t message_size; /* out */
} PJRTX_Error_Message_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Error_Message_Args, message_size);
typedef void PJRTX_Error_Message(PJRTX_Error_Message_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const PJRTX_Error* error;
  PJRTX_Error_Code code; /* out */
} PJRTX_Error_GetCode_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Error_GetCode_Args, code);
typedef PJRTX_Error* PJRTX_Error_GetCode(PJRTX_Error_GetCode_Args* args);

/* Factory a plugin hands to framework callbacks (the key-value store) so
 * that they can report failures. Copies `message`. */
typedef PJRTX_Error* (*PJRTX_CallbackError)(PJRTX_Error_Code code,
                                            const char* message,
                                            size_t message_size);

/* ------------------------------ Named values ----------------------------- */

typedef enum {
  PJRTX_NamedValue_kString = 0,
  PJRTX_NamedValue_kInt64 = 1,
  PJRTX_NamedValue_kInt64List = 2,
  PJRTX_NamedValue_kFloat = 3,
  PJRTX_NamedValue_kBool = 4
} PJRTX_NamedValue_Type;

/* A typed name/value pair: client create options, attributes, the option
 * schema. `value_size` is the element count for strings and lists and 1 for
 * scalars. Arrays of PJRTX_NamedValue are indexed with sizeof, so this
 * struct never grows. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  PJRTX_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  } value;
  size_t value_size;
} PJRTX_NamedValue;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_NamedValue, value_size);

/* --------------------------------- Plugin -------------------------------- */

/* Called once by the framework after loading, before any other call except
 * the error functions. Idempotent. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
} PJRTX_Plugin_Initialize_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Plugin_Initialize_Args, extension_start);
typedef PJRTX_Error* PJRTX_Plugin_Initialize(
    PJRTX_Plugin_Initialize_Args* args);

/* Attributes of the plugin; they live for the life of the process. Always
 * present: `pjrtx.platform_name` (string), `pjrtx.plugin_version` (string),
 * `pjrtx.api_version` (int64 list {major, minor}), `pjrtx.capabilities`
 * (string, comma separated: "dlpack" when buffers can be exchanged through
 * PJRTX_Buffer_ToDLPack / PJRTX_Client_BufferFromDLPack; "execute" when
 * PJRTX_Client_Compile accepts programs; "collectives" when
 * PJRTX_Client_CreateCommunicator makes communicators;
 * "program_collectives" when programs may contain collectives, run as
 * launches). A plugin that finds
 * no usable hardware adds `pjrtx.unavailable_reason` (string). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const PJRTX_NamedValue* attributes; /* out */
  size_t num_attributes;              /* out */
} PJRTX_Plugin_Attributes_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Plugin_Attributes_Args, num_attributes);
typedef PJRTX_Error* PJRTX_Plugin_Attributes(
    PJRTX_Plugin_Attributes_Args* args);

/* The client create options the plugin accepts: for each option its name,
 * type and default value (in `options`), and a one-line description
 * (`descriptions[i]`, NUL-terminated). Lives for the life of the process. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const PJRTX_NamedValue* options; /* out */
  const char* const* descriptions; /* out */
  size_t num_options;              /* out */
} PJRTX_Plugin_OptionSchema_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Plugin_OptionSchema_Args, num_options);
typedef PJRTX_Error* PJRTX_Plugin_OptionSchema(
    PJRTX_Plugin_OptionSchema_Args* args);

/* --------------------------------- Events -------------------------------- */

/* An event becomes ready exactly once, with or without an error. */

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
} PJRTX_Event_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_Destroy_Args, event);
/* Frees the handle. Work the event tracks is unaffected; pending on-ready
 * callbacks still run. */
typedef PJRTX_Error* PJRTX_Event_Destroy(PJRTX_Event_Destroy_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
  bool is_ready; /* out */
} PJRTX_Event_IsReady_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_IsReady_Args, is_ready);
typedef PJRTX_Error* PJRTX_Event_IsReady(PJRTX_Event_IsReady_Args* args);

/* Returns the event's error (a new PJRTX_Error the caller frees) or NULL if
 * it succeeded. FAILED_PRECONDITION if the event is not ready yet. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
} PJRTX_Event_Error_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_Error_Args, event);
typedef PJRTX_Error* PJRTX_Event_Error(PJRTX_Event_Error_Args* args);

/* Blocks the calling thread until the event is ready; returns its error.
 * May be called from an on-ready callback. A plugin may use the blocked
 * thread to do the work the event waits for (the runtime's communicators
 * run a collective that has not started yet on it). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
} PJRTX_Event_Await_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_Await_Args, event);
typedef PJRTX_Error* PJRTX_Event_Await(PJRTX_Event_Await_Args* args);

/* Receives ownership of `error` (NULL on success) and must destroy it. The
 * caller keeps ownership of `user_arg`. */
typedef void (*PJRTX_Event_OnReadyCallback)(PJRTX_Error* error, void* user_arg);

/* Registers `callback` to run once when the event is ready. If the event is
 * already ready the callback runs inline, on the calling thread, before
 * OnReady returns; otherwise it runs on the plugin's callback thread, never
 * on a device worker and never with a runtime lock held. The callback may
 * destroy the event and may await other events. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
  PJRTX_Event_OnReadyCallback callback;
  void* user_arg;
} PJRTX_Event_OnReady_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_OnReady_Args, user_arg);
typedef PJRTX_Error* PJRTX_Event_OnReady(PJRTX_Event_OnReady_Args* args);

/* Creates a framework-owned event that is ready once PJRTX_Event_Set is
 * called on it. Such an event can be passed as a wait event. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event; /* out */
} PJRTX_Event_Create_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_Create_Args, event);
typedef PJRTX_Error* PJRTX_Event_Create(PJRTX_Event_Create_Args* args);

/* Makes an event created by PJRTX_Event_Create ready, with an error unless
 * `error_code` is OK. `error_message` is copied. FAILED_PRECONDITION if the
 * event was set already or was not made by PJRTX_Event_Create. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Event* event;
  PJRTX_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;
} PJRTX_Event_Set_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Event_Set_Args, error_message_size);
typedef PJRTX_Error* PJRTX_Event_Set(PJRTX_Event_Set_Args* args);

/* --------------------------------- Client -------------------------------- */

/* Key-value store callbacks for multi-process bootstrap. Both are
 * thread-safe. Errors are made with `callback_error`. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  int64_t timeout_in_ms;
  PJRTX_CallbackError callback_error;
  void* user_arg;
  char* value;                           /* out */
  size_t value_size;                     /* out */
  void (*value_deleter_callback)(char*); /* out: frees `value` */
} PJRTX_KeyValueGetCallback_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_KeyValueGetCallback_Args,
                         value_deleter_callback);
/* Blocks until `key` exists or the timeout passes (DEADLINE_EXCEEDED). */
typedef PJRTX_Error* (*PJRTX_KeyValueGetCallback)(
    PJRTX_KeyValueGetCallback_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  const char* value;
  size_t value_size;
  PJRTX_CallbackError callback_error;
  void* user_arg;
} PJRTX_KeyValuePutCallback_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_KeyValuePutCallback_Args, user_arg);
typedef PJRTX_Error* (*PJRTX_KeyValuePutCallback)(
    PJRTX_KeyValuePutCallback_Args* args);

/* Creates a client. Options are checked against the plugin's option schema
 * (PJRTX_Plugin_OptionSchema): an unknown name or a value of the wrong type
 * is INVALID_ARGUMENT naming the option; options not given take their
 * defaults. The key-value callbacks are optional (NULL for a single
 * process); the client keeps the callbacks and user args until destroyed. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const PJRTX_NamedValue* create_options;
  size_t num_options;
  PJRTX_KeyValueGetCallback kv_get_callback;
  void* kv_get_user_arg;
  PJRTX_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;
  PJRTX_Client* client; /* out */
} PJRTX_Client_Create_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Create_Args, client);
typedef PJRTX_Error* PJRTX_Client_Create(PJRTX_Client_Create_Args* args);

/* Destroys the client after the work in flight on its devices finishes.
 * Buffers still alive keep their memory until destroyed. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
} PJRTX_Client_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Destroy_Args, client);
typedef PJRTX_Error* PJRTX_Client_Destroy(PJRTX_Client_Destroy_Args* args);

/* Platform name (e.g. "tpu_emu") and version string. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const char* platform_name;    /* out */
  size_t platform_name_size;    /* out */
  const char* platform_version; /* out */
  size_t platform_version_size; /* out */
} PJRTX_Client_Platform_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Platform_Args, platform_version_size);
typedef PJRTX_Error* PJRTX_Client_Platform(PJRTX_Client_Platform_Args* args);

/* Index of this process among the processes of the job. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  int process_index; /* out */
} PJRTX_Client_ProcessIndex_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_ProcessIndex_Args, process_index);
typedef PJRTX_Error* PJRTX_Client_ProcessIndex(
    PJRTX_Client_ProcessIndex_Args* args);

/* Client attributes: the plugin's attributes plus what the client learned at
 * creation. Live as long as the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const PJRTX_NamedValue* attributes; /* out */
  size_t num_attributes;              /* out */
} PJRTX_Client_Attributes_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Attributes_Args, num_attributes);
typedef PJRTX_Error* PJRTX_Client_Attributes(
    PJRTX_Client_Attributes_Args* args);

/* All devices of the job (Devices) or those this process drives
 * (AddressableDevices). The array lives as long as the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  PJRTX_Device* const* devices; /* out */
  size_t num_devices;           /* out */
} PJRTX_Client_Devices_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Devices_Args, num_devices);
typedef PJRTX_Error* PJRTX_Client_Devices(PJRTX_Client_Devices_Args* args);
typedef PJRTX_Error* PJRTX_Client_AddressableDevices(
    PJRTX_Client_Devices_Args* args);

/* The device with global id `id`; NOT_FOUND naming the id and the valid
 * range otherwise. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  int64_t id;
  PJRTX_Device* device; /* out */
} PJRTX_Client_LookupDevice_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_LookupDevice_Args, device);
typedef PJRTX_Error* PJRTX_Client_LookupDevice(
    PJRTX_Client_LookupDevice_Args* args);

/* Memories addressable by this process. Lives as long as the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  PJRTX_Memory* const* memories; /* out */
  size_t num_memories;           /* out */
} PJRTX_Client_AddressableMemories_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_AddressableMemories_Args, num_memories);
typedef PJRTX_Error* PJRTX_Client_AddressableMemories(
    PJRTX_Client_AddressableMemories_Args* args);

/* The topology of the devices of the job, owned by the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  PJRTX_TopologyDescription* topology; /* out */
} PJRTX_Client_TopologyDescription_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_TopologyDescription_Args, topology);
typedef PJRTX_Error* PJRTX_Client_TopologyDescription(
    PJRTX_Client_TopologyDescription_Args* args);

/* ------------------------------ Element types ---------------------------- */

/* Values are PJRT's, in order. Supported in 0.1: PRED, S8-S64, U8-U64, F16,
 * BF16, F32, F64, F8E5M2, F8E4M3FN; since 0.3 also S2, S4, U2, U4, stored
 * one element per byte (sign- or zero-extended), which is how host data
 * for them is laid out too. A plugin answers other types with
 * UNIMPLEMENTED naming the type. */
typedef enum {
  PJRTX_Buffer_Type_INVALID = 0,
  PJRTX_Buffer_Type_PRED,
  PJRTX_Buffer_Type_S8,
  PJRTX_Buffer_Type_S16,
  PJRTX_Buffer_Type_S32,
  PJRTX_Buffer_Type_S64,
  PJRTX_Buffer_Type_U8,
  PJRTX_Buffer_Type_U16,
  PJRTX_Buffer_Type_U32,
  PJRTX_Buffer_Type_U64,
  PJRTX_Buffer_Type_F16,
  PJRTX_Buffer_Type_F32,
  PJRTX_Buffer_Type_F64,
  PJRTX_Buffer_Type_BF16,
  /* Complex numbers (from 0.5): a pair of F32 / F64, real part first. */
  PJRTX_Buffer_Type_C64,
  PJRTX_Buffer_Type_C128,
  PJRTX_Buffer_Type_F8E5M2,
  PJRTX_Buffer_Type_F8E4M3FN,
  PJRTX_Buffer_Type_F8E4M3B11FNUZ,
  PJRTX_Buffer_Type_F8E5M2FNUZ,
  PJRTX_Buffer_Type_F8E4M3FNUZ,
  PJRTX_Buffer_Type_S4,
  PJRTX_Buffer_Type_U4,
  PJRTX_Buffer_Type_TOKEN,
  PJRTX_Buffer_Type_S2,
  PJRTX_Buffer_Type_U2,
  PJRTX_Buffer_Type_F8E4M3,
  PJRTX_Buffer_Type_F8E3M4,
  PJRTX_Buffer_Type_F8E8M0FNU,
  PJRTX_Buffer_Type_F4E2M1FN,
  PJRTX_Buffer_Type_S1,
  PJRTX_Buffer_Type_U1,
  PJRTX_Buffer_Type_F6E2M3FN,
  PJRTX_Buffer_Type_F6E3M2FN
} PJRTX_Buffer_Type;

/* --------------------------- Device descriptions ------------------------- */

/* A device description is owned by its device (or topology). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  PJRTX_DeviceDescription* device_description; /* out */
} PJRTX_Device_GetDescription_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_GetDescription_Args, device_description);
typedef PJRTX_Error* PJRTX_Device_GetDescription(
    PJRTX_Device_GetDescription_Args* args);

/* Global id, unique across the processes of the job. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_DeviceDescription* device_description;
  int64_t id; /* out */
} PJRTX_DeviceDescription_Id_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_DeviceDescription_Id_Args, id);
typedef PJRTX_Error* PJRTX_DeviceDescription_Id(
    PJRTX_DeviceDescription_Id_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_DeviceDescription* device_description;
  int process_index; /* out */
} PJRTX_DeviceDescription_ProcessIndex_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_DeviceDescription_ProcessIndex_Args,
                         process_index);
typedef PJRTX_Error* PJRTX_DeviceDescription_ProcessIndex(
    PJRTX_DeviceDescription_ProcessIndex_Args* args);

/* Device kind, e.g. "TPU v5 lite (emulated)". */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_DeviceDescription* device_description;
  const char* device_kind; /* out */
  size_t device_kind_size; /* out */
} PJRTX_DeviceDescription_Kind_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_DeviceDescription_Kind_Args, device_kind_size);
typedef PJRTX_Error* PJRTX_DeviceDescription_Kind(
    PJRTX_DeviceDescription_Kind_Args* args);

/* Device attributes (e.g. `coords`, an int64 list of 3). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_DeviceDescription* device_description;
  const PJRTX_NamedValue* attributes; /* out */
  size_t num_attributes;              /* out */
} PJRTX_DeviceDescription_Attributes_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_DeviceDescription_Attributes_Args,
                         num_attributes);
typedef PJRTX_Error* PJRTX_DeviceDescription_Attributes(
    PJRTX_DeviceDescription_Attributes_Args* args);

/* A short (ToString) or a detailed (DebugString) text. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_DeviceDescription* device_description;
  const char* text; /* out */
  size_t text_size; /* out */
} PJRTX_DeviceDescription_String_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_DeviceDescription_String_Args, text_size);
typedef PJRTX_Error* PJRTX_DeviceDescription_ToString(
    PJRTX_DeviceDescription_String_Args* args);
typedef PJRTX_Error* PJRTX_DeviceDescription_DebugString(
    PJRTX_DeviceDescription_String_Args* args);

/* -------------------------------- Devices -------------------------------- */

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  bool is_addressable; /* out */
} PJRTX_Device_IsAddressable_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_IsAddressable_Args, is_addressable);
typedef PJRTX_Error* PJRTX_Device_IsAddressable(
    PJRTX_Device_IsAddressable_Args* args);

/* Index of an addressable device among this process's devices;
 * FAILED_PRECONDITION for a device of another process. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  int local_hardware_id; /* out */
} PJRTX_Device_LocalHardwareId_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_LocalHardwareId_Args, local_hardware_id);
typedef PJRTX_Error* PJRTX_Device_LocalHardwareId(
    PJRTX_Device_LocalHardwareId_Args* args);

/* Memories the device can address; the array lives as long as the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  PJRTX_Memory* const* memories; /* out */
  size_t num_memories;           /* out */
} PJRTX_Device_AddressableMemories_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_AddressableMemories_Args, num_memories);
typedef PJRTX_Error* PJRTX_Device_AddressableMemories(
    PJRTX_Device_AddressableMemories_Args* args);

/* The memory buffers go to when no memory is named. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  PJRTX_Memory* memory; /* out */
} PJRTX_Device_DefaultMemory_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_DefaultMemory_Args, memory);
typedef PJRTX_Error* PJRTX_Device_DefaultMemory(
    PJRTX_Device_DefaultMemory_Args* args);

/* Statistics of the device's default memory. `bytes_limit` is 0 when the
 * memory has no limit. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  int64_t bytes_in_use;      /* out */
  int64_t peak_bytes_in_use; /* out */
  int64_t num_allocs;        /* out: live allocations */
  int64_t bytes_limit;       /* out */
} PJRTX_Device_MemoryStats_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_MemoryStats_Args, bytes_limit);
typedef PJRTX_Error* PJRTX_Device_MemoryStats(
    PJRTX_Device_MemoryStats_Args* args);

/* Monotonic per-device transfer counters, read as a snapshot; subtract two
 * snapshots to measure an interval. host_to_device and device_to_host count
 * copies between host memory and the device; device_to_device counts
 * copies into this device from another device of the same process (ICI);
 * staging counts copies through host staging memory made on behalf of a
 * transport; dcn counts bytes this device sent to and received from other
 * processes. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Device* device;
  int64_t host_to_device_bytes;   /* out */
  int64_t host_to_device_ops;     /* out */
  int64_t device_to_host_bytes;   /* out */
  int64_t device_to_host_ops;     /* out */
  int64_t device_to_device_bytes; /* out */
  int64_t device_to_device_ops;   /* out */
  int64_t staging_bytes;          /* out */
  int64_t staging_ops;            /* out */
  int64_t dcn_sent_bytes;         /* out */
  int64_t dcn_sent_ops;           /* out */
  int64_t dcn_received_bytes;     /* out */
  int64_t dcn_received_ops;       /* out */
} PJRTX_Device_TransferCounters_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Device_TransferCounters_Args, dcn_received_ops);
typedef PJRTX_Error* PJRTX_Device_TransferCounters(
    PJRTX_Device_TransferCounters_Args* args);

/* -------------------------------- Memories ------------------------------- */

/* Id unique within the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Memory* memory;
  int id; /* out */
} PJRTX_Memory_Id_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Memory_Id_Args, id);
typedef PJRTX_Error* PJRTX_Memory_Id(PJRTX_Memory_Id_Args* args);

/* The numeric codes of memory kinds (PJRTX_Memory_Kind_Args.kind_code). */
typedef enum {
  PJRTX_MemoryKind_Device = 0,
  PJRTX_MemoryKind_PinnedHost = 1,
  PJRTX_MemoryKind_UnpinnedHost = 2,
  /* A plugin-specific kind takes this code or more. */
  PJRTX_MemoryKind_FirstPluginSpecific = 100
} PJRTX_MemoryKindCode;

/* Memory kind: "device", "pinned_host" or "unpinned_host", and its code
 * (a PJRTX_MemoryKindCode). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Memory* memory;
  const char* kind; /* out */
  size_t kind_size; /* out */
  int kind_code;    /* out */
} PJRTX_Memory_Kind_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Memory_Kind_Args, kind_code);
typedef PJRTX_Error* PJRTX_Memory_Kind(PJRTX_Memory_Kind_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Memory* memory;
  const char* text; /* out */
  size_t text_size; /* out */
} PJRTX_Memory_String_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Memory_String_Args, text_size);
typedef PJRTX_Error* PJRTX_Memory_ToString(PJRTX_Memory_String_Args* args);

/* Devices that can address this memory; lives as long as the client. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Memory* memory;
  PJRTX_Device* const* devices; /* out */
  size_t num_devices;           /* out */
} PJRTX_Memory_AddressableByDevices_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Memory_AddressableByDevices_Args, num_devices);
typedef PJRTX_Error* PJRTX_Memory_AddressableByDevices(
    PJRTX_Memory_AddressableByDevices_Args* args);

/* ------------------------------- Topology -------------------------------- */

/* Platform name of the topology. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_TopologyDescription* topology;
  const char* platform_name; /* out */
  size_t platform_name_size; /* out */
} PJRTX_TopologyDescription_PlatformName_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_TopologyDescription_PlatformName_Args,
                         platform_name_size);
typedef PJRTX_Error* PJRTX_TopologyDescription_PlatformName(
    PJRTX_TopologyDescription_PlatformName_Args* args);

/* Descriptions of every device of the topology, all processes included. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_TopologyDescription* topology;
  PJRTX_DeviceDescription* const* descriptions; /* out */
  size_t num_descriptions;                      /* out */
} PJRTX_TopologyDescription_GetDeviceDescriptions_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_TopologyDescription_GetDeviceDescriptions_Args,
                         num_descriptions);
typedef PJRTX_Error* PJRTX_TopologyDescription_GetDeviceDescriptions(
    PJRTX_TopologyDescription_GetDeviceDescriptions_Args* args);

/* Topology attributes (e.g. `topology` = "v5e:2x2", `num_slices`). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_TopologyDescription* topology;
  const PJRTX_NamedValue* attributes; /* out */
  size_t num_attributes;              /* out */
} PJRTX_TopologyDescription_Attributes_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_TopologyDescription_Attributes_Args,
                         num_attributes);
typedef PJRTX_Error* PJRTX_TopologyDescription_Attributes(
    PJRTX_TopologyDescription_Attributes_Args* args);

/* -------------------------------- Buffers -------------------------------- */

/* How a host buffer given to BufferFromHostBuffer may be used. */
typedef enum {
  /* Copied before the call returns (into host staging memory if the device
   * copy must wait for `wait_events`); the host buffer may be reused at
   * once and `done_with_host_buffer` is ready on return. */
  PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall = 0,
  /* Copied asynchronously; the host buffer must stay unchanged until
   * `done_with_host_buffer` is ready. */
  PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes = 1,
  /* The runtime may alias the host buffer instead of copying (when the
   * memory can be addressed in place and the layout is dense); it never
   * writes it. The buffer must stay alive and unchanged until
   * `done_with_host_buffer` is ready, which for an aliased buffer is when
   * the device buffer's memory is released. */
  PJRTX_HostBufferSemantics_kImmutableZeroCopy = 2,
  /* As kImmutableZeroCopy, and the runtime may also write it. */
  PJRTX_HostBufferSemantics_kMutableZeroCopy = 3
} PJRTX_HostBufferSemantics;

/* Creates a buffer on `device` (its default memory) or in `memory` (one of
 * the two must be set; if both are, the memory must be addressable by the
 * device) holding a copy of, or an alias to, host data. `byte_strides`
 * (optional, `num_dims` entries) describe the host layout; NULL means dense
 * row-major. The copy starts after every `wait_events[i]` is ready; an error
 * in one of them becomes the buffer's error. `done_with_host_buffer` is
 * owned by the caller. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const void* data;
  PJRTX_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  const int64_t* byte_strides;
  size_t num_byte_strides;
  PJRTX_HostBufferSemantics host_buffer_semantics;
  PJRTX_Device* device;
  PJRTX_Memory* memory;
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  PJRTX_Event* done_with_host_buffer; /* out */
  PJRTX_Buffer* buffer;               /* out */
} PJRTX_Client_BufferFromHostBuffer_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_BufferFromHostBuffer_Args, buffer);
typedef PJRTX_Error* PJRTX_Client_BufferFromHostBuffer(
    PJRTX_Client_BufferFromHostBuffer_Args* args);

/* Frees the handle; the memory is released once the operations using it are
 * complete (as PJRTX_Buffer_Delete). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
} PJRTX_Buffer_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_Destroy_Args, buffer);
typedef PJRTX_Error* PJRTX_Buffer_Destroy(PJRTX_Buffer_Destroy_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Buffer_Type type; /* out */
} PJRTX_Buffer_ElementType_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_ElementType_Args, type);
typedef PJRTX_Error* PJRTX_Buffer_ElementType(
    PJRTX_Buffer_ElementType_Args* args);

/* Dimensions; the array lives as long as the buffer handle. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  const int64_t* dims; /* out */
  size_t num_dims;     /* out */
} PJRTX_Buffer_Dimensions_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_Dimensions_Args, num_dims);
typedef PJRTX_Error* PJRTX_Buffer_Dimensions(
    PJRTX_Buffer_Dimensions_Args* args);

/* Bytes the buffer occupies on its memory. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  size_t on_device_size_in_bytes; /* out */
} PJRTX_Buffer_OnDeviceSizeInBytes_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_OnDeviceSizeInBytes_Args,
                         on_device_size_in_bytes);
typedef PJRTX_Error* PJRTX_Buffer_OnDeviceSizeInBytes(
    PJRTX_Buffer_OnDeviceSizeInBytes_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Device* device; /* out */
} PJRTX_Buffer_Device_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_Device_Args, device);
typedef PJRTX_Error* PJRTX_Buffer_Device(PJRTX_Buffer_Device_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Memory* memory; /* out */
} PJRTX_Buffer_Memory_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_Memory_Args, memory);
typedef PJRTX_Error* PJRTX_Buffer_Memory(PJRTX_Buffer_Memory_Args* args);

/* Releases the buffer's memory once the operations using it are complete.
 * The handle stays valid for IsDeleted and Destroy; any other use is
 * FAILED_PRECONDITION. Deleting twice is a no-op. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
} PJRTX_Buffer_Delete_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_Delete_Args, buffer);
typedef PJRTX_Error* PJRTX_Buffer_Delete(PJRTX_Buffer_Delete_Args* args);

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  bool is_deleted; /* out */
} PJRTX_Buffer_IsDeleted_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_IsDeleted_Args, is_deleted);
typedef PJRTX_Error* PJRTX_Buffer_IsDeleted(PJRTX_Buffer_IsDeleted_Args* args);

/* An event ready when the buffer's contents are defined (with the error of
 * the operation that was to define them, if it failed). Owned by the
 * caller. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Event* event; /* out */
} PJRTX_Buffer_ReadyEvent_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_ReadyEvent_Args, event);
typedef PJRTX_Error* PJRTX_Buffer_ReadyEvent(
    PJRTX_Buffer_ReadyEvent_Args* args);

/* Copies the buffer to host memory `dst` as dense row-major data. With
 * `dst` NULL it only sets `dst_size` to the bytes needed. Otherwise
 * `dst_size` must be at least that (else INVALID_ARGUMENT naming both
 * sizes) and `dst` must stay alive until `event` (owned by the caller) is
 * ready. A size query returns no event. The copy starts after the buffer is
 * defined and every `wait_events[i]` is ready. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* src;
  void* dst;
  size_t dst_size; /* in, or out when dst is NULL */
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  PJRTX_Event* event; /* out */
} PJRTX_Buffer_ToHostBuffer_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_ToHostBuffer_Args, event);
typedef PJRTX_Error* PJRTX_Buffer_ToHostBuffer(
    PJRTX_Buffer_ToHostBuffer_Args* args);

/* Copies the buffer to the default memory of `dst_device`. The new buffer is
 * returned at once; it is defined when the copy completes. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Device* dst_device;
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  PJRTX_Buffer* dst_buffer; /* out */
} PJRTX_Buffer_CopyToDevice_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_CopyToDevice_Args, dst_buffer);
typedef PJRTX_Error* PJRTX_Buffer_CopyToDevice(
    PJRTX_Buffer_CopyToDevice_Args* args);

/* Copies the buffer into `dst_memory` (e.g. from device to pinned_host). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  PJRTX_Memory* dst_memory;
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  PJRTX_Buffer* dst_buffer; /* out */
} PJRTX_Buffer_CopyToMemory_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_CopyToMemory_Args, dst_buffer);
typedef PJRTX_Error* PJRTX_Buffer_CopyToMemory(
    PJRTX_Buffer_CopyToMemory_Args* args);

/* -------------------------------- DLPack (0.2) --------------------------- */

/* DLPack's legacy managed tensor (dlpack.h, any version >= 0.6). This header
 * does not include dlpack.h; include it where tensors are read. */
struct DLManagedTensor;

/* Exports a buffer as a DLPack tensor without copying: `dl_managed_tensor`
 * points at the buffer's memory and keeps it alive (even after the buffer
 * is deleted) until the consumer calls the tensor's deleter, exactly once.
 * The data may be read once `ready_event` (owned by the caller) is ready;
 * a consumer on a device stream passes it as `consumer_stream` (DLPack's
 * stream convention) and the runtime makes that stream wait instead, so no
 * host synchronisation is needed; memories read by the host ignore it.
 * UNIMPLEMENTED when the buffer's memory or element type has no DLPack
 * form (e.g. PRED and FP8 in DLPack 0.6), naming which. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Buffer* buffer;
  intptr_t consumer_stream;
  struct DLManagedTensor* dl_managed_tensor; /* out */
  PJRTX_Event* ready_event;                  /* out */
} PJRTX_Buffer_ToDLPack_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Buffer_ToDLPack_Args, ready_event);
typedef PJRTX_Error* PJRTX_Buffer_ToDLPack(PJRTX_Buffer_ToDLPack_Args* args);

/* Wraps a DLPack tensor as a buffer without copying. On success the runtime
 * owns `dl_managed_tensor` and calls its deleter once the buffer's memory is
 * released; on error the caller keeps it. The tensor must be dense
 * row-major (strides NULL or compact) and live where `device` (or, if NULL,
 * the addressable device the tensor's DLDevice names) can address it in
 * place; otherwise INVALID_ARGUMENT naming the mismatch. The data must not
 * change while the buffer is alive unless the caller orders the writes. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  struct DLManagedTensor* dl_managed_tensor;
  PJRTX_Device* device;
  PJRTX_Buffer* buffer; /* out */
} PJRTX_Client_BufferFromDLPack_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_BufferFromDLPack_Args, buffer);
typedef PJRTX_Error* PJRTX_Client_BufferFromDLPack(
    PJRTX_Client_BufferFromDLPack_Args* args);

/* ----------------------------- Executables (0.3) -------------------------- */

/* A program to compile. Format "mlir": StableHLO in MLIR text (pretty or
 * generic form), or a StableHLO portable artifact (MLIR bytecode of the
 * VHLO dialect, versions 0.9.0 to the plugin's stablehlo_current_version). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  const char* code;
  size_t code_size;
  const char* format;
  size_t format_size;
} PJRTX_Program;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Program, format_size);

/* Compiles `program` for the client's addressable devices. Compile options
 * (named values): `entry` (string, the function to run; default `main`, or
 * the only function without arguments), `device_assignment` (int64 list of
 * global device ids, replica-major: replicas x partitions; default: every
 * addressable device, one replica each), `checks_as_outputs` (bool: the
 * StableHLO test corpus's check.* ops become extra outputs), `fusion`
 * (bool, default true: elementwise chains run as one pass), `num_replicas`
 * and `num_partitions` (int64 >= 1: the launch's process counts for
 * programs with collectives; default: the module's mhlo.num_replicas /
 * mhlo.num_partitions, or one replica per assigned device). Runs of such
 * programs with the same `launch_id` form one launch. Errors carry
 * "line:column" positions: INVALID_ARGUMENT for malformed or ill-typed
 * programs and bad options, UNIMPLEMENTED for unsupported ops and types. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const PJRTX_Program* program;
  const PJRTX_NamedValue* compile_options;
  size_t num_compile_options;
  PJRTX_LoadedExecutable* executable; /* out */
} PJRTX_Client_Compile_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_Compile_Args, executable);
typedef PJRTX_Error* PJRTX_Client_Compile(PJRTX_Client_Compile_Args* args);

/* Frees the executable once the executions in flight complete. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_LoadedExecutable* executable;
} PJRTX_LoadedExecutable_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_LoadedExecutable_Destroy_Args, executable);
typedef PJRTX_Error* PJRTX_LoadedExecutable_Destroy(
    PJRTX_LoadedExecutable_Destroy_Args* args);

/* What an executable takes and returns on each of its devices (the same on
 * every device). Arrays live as long as the executable; the shape of input
 * or output i is dims[dims_offsets[i] .. dims_offsets[i] + ranks[i]). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_LoadedExecutable* executable;
  const char* name;                      /* out */
  size_t name_size;                      /* out */
  PJRTX_Device* const* devices;          /* out: addressable devices */
  size_t num_devices;                    /* out */
  size_t num_inputs;                     /* out */
  const PJRTX_Buffer_Type* input_types;  /* out */
  const size_t* input_ranks;             /* out */
  const size_t* input_dims_offsets;      /* out */
  const int64_t* input_dims;             /* out */
  size_t num_outputs;                    /* out */
  const PJRTX_Buffer_Type* output_types; /* out */
  const size_t* output_ranks;            /* out */
  const size_t* output_dims_offsets;     /* out */
  const int64_t* output_dims;            /* out */
} PJRTX_LoadedExecutable_Metadata_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_LoadedExecutable_Metadata_Args, output_dims);
typedef PJRTX_Error* PJRTX_LoadedExecutable_Metadata(
    PJRTX_LoadedExecutable_Metadata_Args* args);

/* Runs the executable on `num_devices` devices (`devices`, or NULL for the
 * executable's devices in order). `argument_lists[d][i]` is argument i on
 * device d; each must live on device d. The call never blocks: each
 * device's run waits for its arguments to be defined and for
 * `wait_events`; outputs are returned at once in
 * `output_lists[d][0..num_outputs)` (caller-provided arrays, filled) and
 * are defined when the run completes; `device_complete_events[d]`
 * (caller-provided array, filled; may be NULL) is ready then. A failure
 * inside a run reaches that device's outputs and completion event.
 * `donate_arguments` (optional, one flag per argument index) hands those
 * arguments' memory to the run: the argument buffers become deleted and an
 * output of the same shape and type may reuse their memory. `launch_id`
 * identifies this launch across processes. Not populated on error. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_LoadedExecutable* executable;
  PJRTX_Device* const* devices;
  size_t num_devices;
  PJRTX_Buffer* const* const* argument_lists;
  size_t num_args;
  const bool* donate_arguments;
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  int64_t launch_id;
  PJRTX_Buffer** const* output_lists;   /* in: arrays; out: their entries */
  PJRTX_Event** device_complete_events; /* in: array or NULL; out */
} PJRTX_LoadedExecutable_Execute_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_LoadedExecutable_Execute_Args,
                         device_complete_events);
typedef PJRTX_Error* PJRTX_LoadedExecutable_Execute(
    PJRTX_LoadedExecutable_Execute_Args* args);

/* Which arguments a run may be handed (`donate_arguments` of Execute) and
 * what becomes of their memory, as the program declares it (StableHLO's
 * `tf.aliasing_output` and `jax.buffer_donor` argument attributes; a donor
 * takes the first output of its shape and type no other argument takes).
 * `aliases[i]` for argument i is the index of the output its memory
 * becomes, or PJRTX_INPUT_NOT_DONATABLE (nothing declared, or a donor no
 * output can use). The array lives as long as the executable. (0.6) */
#define PJRTX_INPUT_NOT_DONATABLE (-1)
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_LoadedExecutable* executable;
  const int64_t* aliases; /* out */
  size_t num_inputs;      /* out */
} PJRTX_LoadedExecutable_InputAliases_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_LoadedExecutable_InputAliases_Args, num_inputs);
typedef PJRTX_Error* PJRTX_LoadedExecutable_InputAliases(
    PJRTX_LoadedExecutable_InputAliases_Args* args);

/* Serializes the executable to bytes (a flatbuffer with file identifier
 * "PJXE" and a format version) that DeserializeAndLoad accepts on a client
 * of the same plugin. The bytes live until `serialized_executable_deleter`
 * is called on `serialized_executable`. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_LoadedExecutable* executable;
  const char* serialized_bytes;                      /* out */
  size_t serialized_bytes_size;                      /* out */
  void* serialized_executable;                       /* out */
  void (*serialized_executable_deleter)(void* exec); /* out */
} PJRTX_LoadedExecutable_Serialize_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_LoadedExecutable_Serialize_Args,
                         serialized_executable_deleter);
typedef PJRTX_Error* PJRTX_LoadedExecutable_Serialize(
    PJRTX_LoadedExecutable_Serialize_Args* args);

/* Loads serialized bytes. A wrong file identifier, another format version,
 * another platform, or truncated or corrupt bytes are INVALID_ARGUMENT
 * saying which; the bytes are never read out of bounds. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const char* serialized_executable;
  size_t serialized_executable_size;
  PJRTX_LoadedExecutable* executable; /* out */
} PJRTX_Client_DeserializeAndLoad_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_DeserializeAndLoad_Args, executable);
typedef PJRTX_Error* PJRTX_Client_DeserializeAndLoad(
    PJRTX_Client_DeserializeAndLoad_Args* args);

/* ---------------------------- Communicators ----------------------------- */
/* (0.4) Collectives over a list of devices, in every process that owns one
 * of them. Capability `collectives`. */

typedef struct PJRTX_Communicator PJRTX_Communicator;

typedef enum {
  PJRTX_ReduceOp_SUM = 0,
  PJRTX_ReduceOp_PRODUCT = 1,
  PJRTX_ReduceOp_MIN = 2,
  PJRTX_ReduceOp_MAX = 3
} PJRTX_ReduceOp;

/* How an operation moves data; AUTO picks by size and topology, and the
 * environment variable PJRTX_COLLECTIVE_ALGORITHM (auto, ring,
 * halving_doubling, hierarchical) overrides AUTO. */
typedef enum {
  PJRTX_CollectiveAlgorithm_AUTO = 0,
  PJRTX_CollectiveAlgorithm_RING = 1,
  PJRTX_CollectiveAlgorithm_HALVING_DOUBLING = 2,
  PJRTX_CollectiveAlgorithm_HIERARCHICAL = 3
} PJRTX_CollectiveAlgorithm;

typedef enum {
  /* Every rank's output is the elementwise reduction of all inputs. */
  PJRTX_Collective_ALL_REDUCE = 0,
  /* The reduction, split along dimension 0 into `size` equal blocks; rank r
   * gets block r (dimension 0 must divide by the size). */
  PJRTX_Collective_REDUCE_SCATTER = 1,
  /* Every rank gets all inputs concatenated along dimension 0, in rank
   * order. */
  PJRTX_Collective_ALL_GATHER = 2,
  /* Every rank gets the input of rank `root`. */
  PJRTX_Collective_BROADCAST = 3,
  /* Each input is split along dimension 0 into `size` blocks; block j of
   * rank i becomes block i of rank j's output. */
  PJRTX_Collective_ALL_TO_ALL = 4,
  /* Rank r sends its input to send_to[r] and receives from recv_from[r]
   * (-1: none); the output is what it received (no output without a
   * source). */
  PJRTX_Collective_SEND_RECV = 5
} PJRTX_CollectiveKind;

/* Creates a communicator over `device_ids` (global device ids; rank r is
 * device_ids[r]). Every process owning one of the devices calls it with
 * the same list; it returns once all of them have joined (through the
 * client's key-value store), or DEADLINE_EXCEEDED naming the processes
 * missing after `timeout_in_ms` (<= 0: 60 s), which is also the default
 * timeout of its operations. An unknown or repeated id is INVALID_ARGUMENT
 * naming it. `local_ranks` (out, owned by the communicator) lists the ranks
 * whose devices this process owns, ascending. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Client* client;
  const int64_t* device_ids;
  size_t num_devices;
  int64_t timeout_in_ms;
  PJRTX_Communicator* communicator; /* out */
  const int64_t* local_ranks;       /* out */
  size_t num_local_ranks;           /* out */
} PJRTX_Client_CreateCommunicator_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Client_CreateCommunicator_Args, num_local_ranks);
typedef PJRTX_Error* PJRTX_Client_CreateCommunicator(
    PJRTX_Client_CreateCommunicator_Args* args);

/* Waits for the communicator's operations in flight, then frees it. Using
 * it afterwards is undefined; an operation on a communicator whose peers
 * destroyed theirs fails with UNAVAILABLE. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Communicator* communicator;
} PJRTX_Communicator_Destroy_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Communicator_Destroy_Args, communicator);
typedef PJRTX_Error* PJRTX_Communicator_Destroy(
    PJRTX_Communicator_Destroy_Args* args);

/* One collective, called once per process over its local ranks and issued
 * by every process in the same order. `inputs[i]` is local rank i's buffer
 * (on that rank's device; same type and shape on every rank, checked: a
 * mismatch fails every rank's event with INVALID_ARGUMENT naming both).
 * Never blocks: each rank's part starts once its input is defined and
 * `wait_events` are ready. `outputs[i]` (caller array, filled) is a new
 * buffer on rank i's device, defined when `events[i]` (caller array,
 * filled) is ready; a peer that fails or never arrives fails the events
 * with UNAVAILABLE or DEADLINE_EXCEEDED within the timeout (<= 0: the
 * communicator's). `donate_inputs` (optional) lets the runtime reuse the
 * inputs' memory (those buffers become deleted). */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Communicator* communicator;
  PJRTX_CollectiveKind kind;
  PJRTX_ReduceOp reduce_op;    /* ALL_REDUCE, REDUCE_SCATTER */
  int64_t root;                /* BROADCAST */
  const int64_t* send_to;      /* SEND_RECV: per local rank */
  const int64_t* recv_from;    /* SEND_RECV: per local rank */
  PJRTX_Buffer* const* inputs; /* num_local_ranks entries */
  size_t num_inputs;           /* must equal num_local_ranks */
  const bool* donate_inputs;   /* optional */
  PJRTX_Event* const* wait_events;
  size_t num_wait_events;
  PJRTX_CollectiveAlgorithm algorithm;
  int64_t timeout_in_ms;
  PJRTX_Buffer** outputs; /* in: array of num_inputs; out: its entries */
  PJRTX_Event** events;   /* in: array of num_inputs; out: its entries */
} PJRTX_Communicator_Collective_Args;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Communicator_Collective_Args, events);
typedef PJRTX_Error* PJRTX_Communicator_Collective(
    PJRTX_Communicator_Collective_Args* args);

/* ------------------------------- The table ------------------------------- */

typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  int major_version;
  int minor_version;
} PJRTX_Api_Version;
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Api_Version, minor_version);

/* Declares the slot `name` of type PJRTX_<name>*. */
#define PJRTX_API_SLOT(name) PJRTX_##name* name

/* Every slot is non-NULL; a call the plugin does not support returns
 * UNIMPLEMENTED. Fields are only ever appended. */
typedef struct {
  size_t struct_size;
  PJRTX_Extension_Base* extension_start;
  PJRTX_Api_Version pjrtx_api_version;

  /* 0.1 */
  PJRTX_API_SLOT(Error_Destroy);
  PJRTX_API_SLOT(Error_Message);
  PJRTX_API_SLOT(Error_GetCode);

  PJRTX_API_SLOT(Plugin_Initialize);
  PJRTX_API_SLOT(Plugin_Attributes);
  PJRTX_API_SLOT(Plugin_OptionSchema);

  PJRTX_API_SLOT(Event_Destroy);
  PJRTX_API_SLOT(Event_IsReady);
  PJRTX_API_SLOT(Event_Error);
  PJRTX_API_SLOT(Event_Await);
  PJRTX_API_SLOT(Event_OnReady);
  PJRTX_API_SLOT(Event_Create);
  PJRTX_API_SLOT(Event_Set);

  PJRTX_API_SLOT(Client_Create);
  PJRTX_API_SLOT(Client_Destroy);
  PJRTX_API_SLOT(Client_Platform);
  PJRTX_API_SLOT(Client_ProcessIndex);
  PJRTX_API_SLOT(Client_Attributes);
  PJRTX_API_SLOT(Client_Devices);
  PJRTX_API_SLOT(Client_AddressableDevices);
  PJRTX_API_SLOT(Client_LookupDevice);
  PJRTX_API_SLOT(Client_AddressableMemories);
  PJRTX_API_SLOT(Client_TopologyDescription);
  PJRTX_API_SLOT(Client_BufferFromHostBuffer);

  PJRTX_API_SLOT(Device_GetDescription);
  PJRTX_API_SLOT(Device_IsAddressable);
  PJRTX_API_SLOT(Device_LocalHardwareId);
  PJRTX_API_SLOT(Device_AddressableMemories);
  PJRTX_API_SLOT(Device_DefaultMemory);
  PJRTX_API_SLOT(Device_MemoryStats);
  PJRTX_API_SLOT(Device_TransferCounters);

  PJRTX_API_SLOT(DeviceDescription_Id);
  PJRTX_API_SLOT(DeviceDescription_ProcessIndex);
  PJRTX_API_SLOT(DeviceDescription_Kind);
  PJRTX_API_SLOT(DeviceDescription_Attributes);
  PJRTX_API_SLOT(DeviceDescription_ToString);
  PJRTX_API_SLOT(DeviceDescription_DebugString);

  PJRTX_API_SLOT(Memory_Id);
  PJRTX_API_SLOT(Memory_Kind);
  PJRTX_API_SLOT(Memory_ToString);
  PJRTX_API_SLOT(Memory_AddressableByDevices);

  PJRTX_API_SLOT(TopologyDescription_PlatformName);
  PJRTX_API_SLOT(TopologyDescription_GetDeviceDescriptions);
  PJRTX_API_SLOT(TopologyDescription_Attributes);

  PJRTX_API_SLOT(Buffer_Destroy);
  PJRTX_API_SLOT(Buffer_ElementType);
  PJRTX_API_SLOT(Buffer_Dimensions);
  PJRTX_API_SLOT(Buffer_OnDeviceSizeInBytes);
  PJRTX_API_SLOT(Buffer_Device);
  PJRTX_API_SLOT(Buffer_Memory);
  PJRTX_API_SLOT(Buffer_Delete);
  PJRTX_API_SLOT(Buffer_IsDeleted);
  PJRTX_API_SLOT(Buffer_ReadyEvent);
  PJRTX_API_SLOT(Buffer_ToHostBuffer);
  PJRTX_API_SLOT(Buffer_CopyToDevice);
  PJRTX_API_SLOT(Buffer_CopyToMemory);

  /* 0.2 */
  PJRTX_API_SLOT(Buffer_ToDLPack);
  PJRTX_API_SLOT(Client_BufferFromDLPack);

  /* 0.3 */
  PJRTX_API_SLOT(Client_Compile);
  PJRTX_API_SLOT(Client_DeserializeAndLoad);
  PJRTX_API_SLOT(LoadedExecutable_Destroy);
  PJRTX_API_SLOT(LoadedExecutable_Metadata);
  PJRTX_API_SLOT(LoadedExecutable_Execute);
  PJRTX_API_SLOT(LoadedExecutable_Serialize);

  /* 0.4 */
  PJRTX_API_SLOT(Client_CreateCommunicator);
  PJRTX_API_SLOT(Communicator_Destroy);
  PJRTX_API_SLOT(Communicator_Collective);

  /* 0.6 */
  PJRTX_API_SLOT(LoadedExecutable_InputAliases);
} PJRTX_Api;

/* Size of the table at 0.1; a loader needing 0.1 requires at least this. */
#define PJRTX_Api_STRUCT_SIZE_0_1 \
  PJRTX_STRUCT_SIZE(PJRTX_Api, Buffer_CopyToMemory)
/* Size of the table at 0.2. */
#define PJRTX_Api_STRUCT_SIZE_0_2 \
  PJRTX_STRUCT_SIZE(PJRTX_Api, Client_BufferFromDLPack)
/* Size of the table at 0.3. */
#define PJRTX_Api_STRUCT_SIZE_0_3 \
  PJRTX_STRUCT_SIZE(PJRTX_Api, LoadedExecutable_Serialize)
/* Size of the table at 0.4. */
#define PJRTX_Api_STRUCT_SIZE_0_4 \
  PJRTX_STRUCT_SIZE(PJRTX_Api, Communicator_Collective)
/* Size of the table at 0.5 (0.5 changed no struct) and 0.6. */
#define PJRTX_Api_STRUCT_SIZE_0_6 \
  PJRTX_STRUCT_SIZE(PJRTX_Api, LoadedExecutable_InputAliases)
PJRTX_DEFINE_STRUCT_SIZE(PJRTX_Api, LoadedExecutable_InputAliases);

/* The plugin's entry point (beside OpenXLA's GetPjrtApi). Returns a table
 * that lives for the life of the process; safe to call from any thread, any
 * number of times. */
typedef const PJRTX_Api* (*PJRTX_GetApiFn)(void);
const PJRTX_Api* GetPjrtxApi(void);

#ifdef __cplusplus
}
#endif

#endif /* PJRTX_PJRTX_C_API_H_ */
