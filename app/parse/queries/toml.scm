; One section per table and per top-level key.
(document (table . (_) @name) @definition.section)
(document (table_array_element . (_) @name) @definition.section)
(document (pair . (_) @name) @definition.section)

(comment) @comment
