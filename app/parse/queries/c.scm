; Function names sit at the end of a declarator chain (pointers); Python walks it.
(function_definition declarator: (_) @declarator) @definition.function

(type_definition type: (struct_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(comment) @comment

; A function-like macro written over several lines is code with a body (libuv's
; UV_LOOP_WATCHER_DEFINE, uv__handle_ref): a definition. A one-line macro (an alias, `#define
; ABSL_LOG(s) ABSL_LOG_INTERNAL_LOG_IMPL(_##s)`) is a symbol and a call target, but its line
; stays in its glue (as chunks of their own they measured worse, RESULTS 2026-12-03):
; app.parse.definitions.symbol_only.
(preproc_function_def name: (identifier) @name) @definition.function
