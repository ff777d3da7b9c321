; One section per top-level key.
(document (object (pair key: (_) @name) @definition.section))
