; Call sites for the call graph (app/parse/calls.py): a local call `cast(x)` or `x |> cast()`,
; a remote call `Relation.cast(x)`, `Ecto.Type.cast(t, v)`, `__MODULE__.load(x)`. Elixir's
; definitions, directives and special forms are calls too: they are not call sites
; (`#not-match?`: the bindings do not read `#not-any-of?`). A lower-case receiver without
; parentheses (`changeset.changes`) is a map's field: not read.
(call target: (identifier) @callee
  (#not-match? @callee "^(def|defp|defmacro|defmacrop|defmodule|defprotocol|defimpl|defstruct|defexception|defdelegate|defguard|defguardp|defoverridable|defn|defnp|alias|import|require|use|if|unless|case|cond|with|for|fn|quote|unquote|unquote_splicing|receive|try|raise|reraise|throw|super|__MODULE__|__ENV__|__CALLER__|__DIR__|__STACKTRACE__)$")) @call
(call target: (dot left: (alias) @receiver right: (identifier) @callee)) @call
(call target: (dot left: (identifier) @receiver right: (identifier) @callee)
  (#eq? @receiver "__MODULE__")) @call
; With parentheses it is a call of the module the value holds (`adapter.send_chunked(p)`,
; the adapter a connection carries): known only at run time, but a call site all the same.
(call target: (dot left: (identifier) @receiver right: (identifier) @callee) (arguments)
  (#not-eq? @receiver "__MODULE__")) @call
; Directives: `alias A.B.C`, `alias A.B.C, as: D`, `alias A.{B, C}`, `import A`, and `use A`
; or `use A, :html` (what it imports is read from A's `__using__` or `html` by the resolver).
(call target: (identifier) @_directive (#any-of? @_directive "alias" "import" "use")) @import
; A HEEx template's function components (`~H"""<.icon name="x" />"""`, `<Layouts.flash />`):
; calls of `icon` and `Layouts.flash`, read from the sigil's text (app/parse/calls.py).
(sigil (sigil_name) @_sigil (quoted_content) @heex (#eq? @_sigil "H"))
