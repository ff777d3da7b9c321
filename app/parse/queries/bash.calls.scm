; Call sites for the call graph (app/parse/calls.py): a command whose name is a plain word
; (`build_index "$dir"`), which may name a function defined in the project.
(command name: (command_name (word) @callee)) @call
