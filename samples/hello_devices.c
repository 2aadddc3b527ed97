/* hello_devices: the smallest framework. Pure C99.
 *
 * Loads a pjrtx plugin by path, prints its devices, moves an array to each
 * device and back, and checks it.
 *
 *   hello_devices path/to/libpjrt_x.so [name=value]...
 *
 * Options are passed to the plugin as create options; a value that parses
 * as an integer is passed as int64, otherwise as a string. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrtx/pjrtx_c_api.h"

static const PJRTX_Api* api;

/* Prints and frees `error`; returns 1 if there was one. */
static int Failed(PJRTX_Error* error, const char* what) {
  PJRTX_Error_Message_Args message;
  PJRTX_Error_Destroy_Args destroy;
  if (error == NULL) return 0;
  memset(&message, 0, sizeof(message));
  message.struct_size = PJRTX_Error_Message_Args_STRUCT_SIZE;
  message.error = error;
  api->Error_Message(&message);
  fprintf(stderr, "error: %s: %.*s\n", what, (int)message.message_size,
          message.message);
  memset(&destroy, 0, sizeof(destroy));
  destroy.struct_size = PJRTX_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = error;
  api->Error_Destroy(&destroy);
  return 1;
}

static int AwaitAndDestroy(PJRTX_Event* event, const char* what) {
  PJRTX_Event_Await_Args await;
  PJRTX_Event_Destroy_Args destroy;
  int failed;
  memset(&await, 0, sizeof(await));
  await.struct_size = PJRTX_Event_Await_Args_STRUCT_SIZE;
  await.event = event;
  failed = Failed(api->Event_Await(&await), what);
  memset(&destroy, 0, sizeof(destroy));
  destroy.struct_size = PJRTX_Event_Destroy_Args_STRUCT_SIZE;
  destroy.event = event;
  api->Event_Destroy(&destroy);
  return failed;
}

static void DestroyBuffer(PJRTX_Buffer* buffer) {
  PJRTX_Buffer_Destroy_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = PJRTX_Buffer_Destroy_Args_STRUCT_SIZE;
  args.buffer = buffer;
  api->Buffer_Destroy(&args);
}

/* Prints one line describing `device`. */
static void PrintDevice(PJRTX_Device* device) {
  PJRTX_Device_GetDescription_Args get;
  PJRTX_DeviceDescription_Id_Args id;
  PJRTX_DeviceDescription_Kind_Args kind;
  PJRTX_DeviceDescription_String_Args text;
  memset(&get, 0, sizeof(get));
  get.struct_size = PJRTX_Device_GetDescription_Args_STRUCT_SIZE;
  get.device = device;
  if (Failed(api->Device_GetDescription(&get), "describe device")) return;
  memset(&id, 0, sizeof(id));
  id.struct_size = PJRTX_DeviceDescription_Id_Args_STRUCT_SIZE;
  id.device_description = get.device_description;
  Failed(api->DeviceDescription_Id(&id), "device id");
  memset(&kind, 0, sizeof(kind));
  kind.struct_size = PJRTX_DeviceDescription_Kind_Args_STRUCT_SIZE;
  kind.device_description = get.device_description;
  Failed(api->DeviceDescription_Kind(&kind), "device kind");
  memset(&text, 0, sizeof(text));
  text.struct_size = PJRTX_DeviceDescription_String_Args_STRUCT_SIZE;
  text.device_description = get.device_description;
  Failed(api->DeviceDescription_ToString(&text), "device string");
  printf("  device %lld: %.*s  [%.*s]\n", (long long)id.id, (int)text.text_size,
         text.text, (int)kind.device_kind_size, kind.device_kind);
}

/* Copies `data` to `device` and back; returns 0 if it came back intact. */
static int RoundTrip(PJRTX_Client* client, PJRTX_Device* device,
                     const float* data, int64_t n) {
  PJRTX_Client_BufferFromHostBuffer_Args from;
  PJRTX_Buffer_ToHostBuffer_Args to;
  float* back = (float*)calloc((size_t)n, sizeof(float));
  int failed = 1;
  memset(&from, 0, sizeof(from));
  from.struct_size = PJRTX_Client_BufferFromHostBuffer_Args_STRUCT_SIZE;
  from.client = client;
  from.data = data;
  from.type = PJRTX_Buffer_Type_F32;
  from.dims = &n;
  from.num_dims = 1;
  from.host_buffer_semantics =
      PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  from.device = device;
  if (back == NULL ||
      Failed(api->Client_BufferFromHostBuffer(&from), "copy to device")) {
    free(back);
    return 1;
  }
  memset(&to, 0, sizeof(to));
  to.struct_size = PJRTX_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
  to.src = from.buffer;
  to.dst = back;
  to.dst_size = (size_t)n * sizeof(float);
  if (!AwaitAndDestroy(from.done_with_host_buffer, "host copy") &&
      !Failed(api->Buffer_ToHostBuffer(&to), "copy to host") &&
      !AwaitAndDestroy(to.event, "copy to host")) {
    failed = memcmp(back, data, (size_t)n * sizeof(float)) != 0;
    if (failed) fprintf(stderr, "error: data changed on the round trip\n");
  }
  DestroyBuffer(from.buffer);
  free(back);
  return failed;
}

int main(int argc, char** argv) {
  PJRTX_GetApiFn get_api;
  PJRTX_Plugin_Initialize_Args init;
  PJRTX_Client_Create_Args create;
  PJRTX_Client_Devices_Args devices;
  PJRTX_Client_Destroy_Args destroy;
  PJRTX_NamedValue options[16];
  float data[1024];
  int num_options = 0, i, failures = 0;
  void* plugin;

  if (argc < 2) {
    fprintf(stderr, "usage: %s PLUGIN.so [name=value]...\n", argv[0]);
    return 2;
  }
  plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (plugin == NULL) {
    fprintf(stderr, "error: cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  *(void**)(&get_api) = dlsym(plugin, "GetPjrtxApi");
  if (get_api == NULL || (api = get_api()) == NULL) {
    fprintf(stderr, "error: %s is not a pjrtx plugin\n", argv[1]);
    return 1;
  }
  if (api->pjrtx_api_version.major_version != PJRTX_API_MAJOR ||
      api->pjrtx_api_version.minor_version < PJRTX_API_MINOR) {
    fprintf(stderr, "error: plugin implements API %d.%d, need %d.%d+\n",
            api->pjrtx_api_version.major_version,
            api->pjrtx_api_version.minor_version, PJRTX_API_MAJOR,
            PJRTX_API_MINOR);
    return 1;
  }
  memset(&init, 0, sizeof(init));
  init.struct_size = PJRTX_Plugin_Initialize_Args_STRUCT_SIZE;
  if (Failed(api->Plugin_Initialize(&init), "initialize")) return 1;

  for (i = 2; i < argc && num_options < 16; ++i, ++num_options) {
    char* eq = strchr(argv[i], '=');
    char* end;
    PJRTX_NamedValue* option = &options[num_options];
    if (eq == NULL) {
      fprintf(stderr, "error: option '%s' is not name=value\n", argv[i]);
      return 2;
    }
    *eq = '\0';
    memset(option, 0, sizeof(*option));
    option->struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    option->name = argv[i];
    option->name_size = strlen(argv[i]);
    option->value.int64_value = strtoll(eq + 1, &end, 10);
    option->value_size = 1;
    option->type = PJRTX_NamedValue_kInt64;
    if (*end != '\0' || end == eq + 1) {
      option->type = PJRTX_NamedValue_kString;
      option->value.string_value = eq + 1;
      option->value_size = strlen(eq + 1);
    }
  }
  memset(&create, 0, sizeof(create));
  create.struct_size = PJRTX_Client_Create_Args_STRUCT_SIZE;
  create.create_options = options;
  create.num_options = (size_t)num_options;
  if (Failed(api->Client_Create(&create), "create client")) return 1;

  memset(&devices, 0, sizeof(devices));
  devices.struct_size = PJRTX_Client_Devices_Args_STRUCT_SIZE;
  devices.client = create.client;
  if (Failed(api->Client_AddressableDevices(&devices), "list devices"))
    return 1;
  printf("%s: %d addressable device(s)\n", argv[1], (int)devices.num_devices);
  for (i = 0; i < 1024; ++i) data[i] = (float)i * 0.25f;
  for (i = 0; i < (int)devices.num_devices; ++i) {
    PrintDevice(devices.devices[i]);
    failures += RoundTrip(create.client, devices.devices[i], data, 1024);
  }
  printf("round trips: %d passed, %d failed\n",
         (int)devices.num_devices - failures, failures);

  memset(&destroy, 0, sizeof(destroy));
  destroy.struct_size = PJRTX_Client_Destroy_Args_STRUCT_SIZE;
  destroy.client = create.client;
  Failed(api->Client_Destroy(&destroy), "destroy client");
  return failures == 0 && devices.num_devices > 0 ? 0 : 1;
}
