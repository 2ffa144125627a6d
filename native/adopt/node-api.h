/*
 * The few Node-API functions descriptor-drop.c calls, declared from the
 * documented, ABI-stable interface (https://nodejs.org/api/n-api.html),
 * so the addon builds with the system C compiler alone: no Node headers
 * need be installed. Node, Deno and Bun each export these symbols to the
 * addons they load; the addon leaves them undefined and the runtime
 * resolves them at load time.
 */
#ifndef CORRAL_NODE_API_H
#define CORRAL_NODE_API_H

#include <stddef.h>
#include <stdint.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status; /* napi_ok is 0 */
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);
typedef void (*napi_finalize)(napi_env env, void *data, void *hint);

napi_status napi_create_function(napi_env env, const char *name, size_t length, napi_callback cb, void *data, napi_value *result);
napi_status napi_set_named_property(napi_env env, napi_value object, const char *name, napi_value value);
napi_status napi_get_cb_info(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, napi_value *this_arg, void **data);
napi_status napi_get_value_int32(napi_env env, napi_value value, int32_t *result);
napi_status napi_get_value_string_utf8(napi_env env, napi_value value, char *buf, size_t size, size_t *result);
napi_status napi_create_int32(napi_env env, int32_t value, napi_value *result);
napi_status napi_create_string_utf8(napi_env env, const char *text, size_t length, napi_value *result);
napi_status napi_create_object(napi_env env, napi_value *result);
napi_status napi_create_array_with_length(napi_env env, size_t length, napi_value *result);
napi_status napi_set_element(napi_env env, napi_value object, uint32_t index, napi_value value);
napi_status napi_get_null(napi_env env, napi_value *result);
napi_status napi_throw_error(napi_env env, const char *code, const char *message);
napi_status napi_create_external_arraybuffer(napi_env env, void *data, size_t length, napi_finalize finalize, void *hint, napi_value *result);

#endif
