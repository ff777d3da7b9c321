"""Names a language gives every file without an import: a bare call of one that the project does
not define is the language's own (`min(...)`, `len(x)`, `StringBuilder()`), and the call graph
says so instead of a bare "no definition". Only the reason changes: such a call stays
unresolved, and a project definition of the same name is always found first."""

from __future__ import annotations

import builtins


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PYTHON = frozenset(name for name in dir(builtins) if not name.startswith("_"))

# The Go specification's predeclared functions.
_GO = _names(
    "append cap clear close complex copy delete imag len make max min new panic print println "
    "real recover"
)

# ECMAScript's global functions and constructors, and the host globals every runtime has.
_JS = _names(
    "Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Float32Array Float64Array "
    "Function Int8Array Int16Array Int32Array Map Number Object Promise Proxy RangeError "
    "ReferenceError RegExp Set String Symbol SyntaxError TypeError URIError URL URLSearchParams "
    "Uint8Array Uint16Array Uint32Array WeakMap WeakRef WeakSet AbortController TextDecoder "
    "TextEncoder atob btoa clearInterval clearTimeout decodeURI decodeURIComponent encodeURI "
    "encodeURIComponent eval fetch isFinite isNaN parseFloat parseInt queueMicrotask require "
    "setImmediate setInterval setTimeout structuredClone Blob CustomEvent Event EventTarget "
    "File FormData Headers ReadableStream Request Response TransformStream WebSocket "
    "WritableStream"
)

# Kotlin's default imports (kotlin.*, kotlin.collections.*, kotlin.text.*, kotlin.io.*, ...)
# and java.lang's classes on the JVM, as called bare.
_KOTLIN = _names(
    "Any Array Boolean Char Double Exception Float IllegalArgumentException "
    "IllegalStateException IndexOutOfBoundsException Int Long NoSuchElementException "
    "NullPointerException NumberFormatException Pair Regex RuntimeException Short String "
    "StringBuilder Throwable Triple UnsupportedOperationException also apply "
    "arrayListOf arrayOf arrayOfNulls assert booleanArrayOf buildList buildMap buildSet "
    "buildString byteArrayOf charArrayOf check checkNotNull doubleArrayOf emptyArray emptyList "
    "emptyMap emptySequence emptySet enumValueOf enumValues error floatArrayOf "
    "generateSequence hashMapOf hashSetOf intArrayOf lazy lazyOf let linkedMapOf linkedSetOf "
    "listOf listOfNotNull longArrayOf mapOf maxOf minOf mutableListOf mutableMapOf "
    "mutableSetOf print println readLine readln repeat require requireNotNull run "
    "runCatching sequenceOf setOf shortArrayOf sortedMapOf sortedSetOf synchronized takeIf "
    "takeUnless to use with"
)

# Swift's standard library functions and the types it gives, as called bare.
_SWIFT = _names(
    "Array Bool Character Dictionary Double Float Int Int8 Int16 Int32 Int64 Optional Range "
    "Result Set String Substring UInt UInt8 UInt16 UInt32 UInt64 abs assert assertionFailure "
    "debugPrint dump fatalError max min numericCast precondition preconditionFailure print "
    "repeatElement sequence stride swap type withExtendedLifetime withUnsafeBytes "
    "withUnsafeMutableBytes withUnsafeMutablePointer withUnsafePointer withoutActuallyEscaping "
    "zip"
)

# Rust's prelude as called bare: its enum variants and `drop`.
_RUST = _names("Some Ok Err drop")

# Ruby's Kernel and Module methods a class body or method calls without a receiver.
_RUBY = _names(
    "Array Float Hash Integer Rational String abort alias_method at_exit attr attr_accessor "
    "attr_reader attr_writer autoload binding block_given? caller catch define_method exit "
    "extend fail format freeze include instance_variable_get instance_variable_set "
    "instance_variables is_a? kind_of? lambda loop method module_function "
    "nil? p pp prepend print printf private private_constant proc protected public "
    "public_send puts raise rand require require_relative respond_to? send sleep sprintf "
    "srand throw warn"
)

# The C standard library's functions (and the POSIX calls most C code makes), as called bare.
_C = _names(
    "abort abs assert atexit atoi atol bsearch calloc close exit fclose fflush fgets fopen "
    "fprintf fputs fread free fseek ftell fwrite getenv isalnum isalpha isdigit isspace "
    "isupper islower labs malloc memchr memcmp memcpy memmove memset open perror printf "
    "putchar puts qsort raise read realloc snprintf sprintf sscanf strcat strchr strcmp "
    "strcpy strdup strerror strlen strncat strncmp strncpy strrchr strstr strtod strtol "
    "strtoul tolower toupper va_arg va_end va_start vfprintf vsnprintf write"
)

# PHP's core functions most code calls (php.net's string, array, type and JSON functions).
_PHP = _names(
    "array_filter array_flip array_key_exists array_keys array_map array_merge array_pop "
    "array_push array_reverse array_search array_shift array_slice array_splice "
    "array_unique array_unshift array_values basename call_user_func call_user_func_array "
    "class_exists count dirname explode file_exists file_get_contents file_put_contents "
    "func_get_args function_exists get_class gettype implode in_array intval is_array "
    "is_bool is_callable is_dir is_file is_float is_int is_numeric is_object is_string "
    "iterator_to_array json_decode json_encode ltrim max method_exists min mb_strlen "
    "mb_substr preg_match preg_match_all preg_quote preg_replace preg_replace_callback "
    "preg_split realpath rtrim sprintf str_contains str_ends_with str_pad str_repeat "
    "str_replace str_starts_with strlen strpos strrpos strtolower strtoupper strtr strval "
    "substr trigger_error trim ucfirst var_export"
)

PRELUDES: dict[str, tuple[frozenset[str], str]] = {
    "python": (_PYTHON, "a Python builtin"),
    "go": (_GO, "a Go builtin"),
    "javascript": (_JS, "a JavaScript global"),
    "typescript": (_JS, "a JavaScript global"),
    "tsx": (_JS, "a JavaScript global"),
    "kotlin": (_KOTLIN, "in Kotlin's standard library (imported by default)"),
    "swift": (_SWIFT, "in Swift's standard library"),
    "rust": (_RUST, "in Rust's prelude"),
    "ruby": (_RUBY, "a method of Ruby's Kernel or Module"),
    "c": (_C, "in the C library"),
    "cpp": (_C, "in the C library"),
    "php": (_PHP, "a PHP built-in function"),
}

LANGUAGES_OWN = "the language's own"

# Builtins whose value is itself the language's (a file, a string, a number, a builtin
# container or iterator), never an object of the project: a method called on what they return
# is the language's too (`with open(p) as f: f.write(s)`). Not `next`, `min`, `max`, `getattr`,
# `super` or `type`, which hand over whatever they are given.
BUILTIN_RESULTS: dict[str, frozenset[str]] = {
    "python": _names(
        "open str repr format ascii len int float complex bool bytes bytearray memoryview list "
        "dict set frozenset tuple sorted reversed enumerate zip range map filter iter hex oct "
        "bin chr ord abs round hash id input vars dir"
    ),
}


# Library functions that hand over what they are given, or a copy of it (`copy.deepcopy(field)`
# is the project's field again): what they return is no outside type.
SAME_VALUE_RESULTS: dict[str, frozenset[str]] = {
    "python": _names("copy.copy copy.deepcopy copy.replace dataclasses.replace typing.cast"),
    "javascript": _names("structuredClone"),
}


def prelude_reason(language: str, name: str) -> str:
    """Why a bare call the project defines nothing for is not the project's, or ""."""
    names, label = PRELUDES.get(language, (frozenset(), ""))
    return f"{LANGUAGES_OWN}: {name} is {label}" if name in names else ""
