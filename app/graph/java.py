"""Java's own scoping rules: imports of what a class holds (`import static p.Util.helper`,
`import p.Outer.Inner`), statically imported fields, nested classes seen by their bare names,
and the java.lang types every file imports without a word."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.models import Symbol
from app.graph.facts import CLASS_KINDS, FileFacts
from app.parse.calls import ALIAS

if TYPE_CHECKING:
    from app.graph.resolve import ClassKey, Resolver

# The public classes of java.lang (JDK 17), which every Java file imports without a word (JLS
# 7.3): a receiver of one of these types is no class of the project's.
JAVA_LANG = frozenset(
    {"AbstractMethodError", "Appendable", "ArithmeticException",
     "ArrayIndexOutOfBoundsException", "ArrayStoreException", "AssertionError", "AutoCloseable",
     "Boolean", "BootstrapMethodError", "Byte", "CharSequence", "Character", "Class",
     "ClassCastException", "ClassCircularityError", "ClassFormatError", "ClassLoader",
     "ClassNotFoundException", "ClassValue", "CloneNotSupportedException", "Cloneable",
     "Comparable", "Compiler", "Deprecated", "Double", "Enum", "EnumConstantNotPresentException",
     "Error", "Exception", "ExceptionInInitializerError", "Float", "FunctionalInterface",
     "IllegalAccessError", "IllegalAccessException", "IllegalArgumentException",
     "IllegalCallerException", "IllegalMonitorStateException", "IllegalStateException",
     "IllegalThreadStateException", "IncompatibleClassChangeError", "IndexOutOfBoundsException",
     "InheritableThreadLocal", "InstantiationError", "InstantiationException", "Integer",
     "InternalError", "InterruptedException", "Iterable", "LayerInstantiationException",
     "LinkageError", "Long", "Math", "Module", "ModuleLayer", "NegativeArraySizeException",
     "NoClassDefFoundError", "NoSuchFieldError", "NoSuchFieldException", "NoSuchMethodError",
     "NoSuchMethodException", "NullPointerException", "Number", "NumberFormatException",
     "Object", "OutOfMemoryError", "Override", "Package", "Process", "ProcessBuilder",
     "ProcessHandle", "Readable", "Record", "ReflectiveOperationException", "Runnable",
     "Runtime", "RuntimeException", "RuntimePermission", "SafeVarargs", "SecurityException",
     "SecurityManager", "Short", "StackOverflowError", "StackTraceElement", "StackWalker",
     "StrictMath", "String", "StringBuffer", "StringBuilder", "StringIndexOutOfBoundsException",
     "SuppressWarnings", "System", "Thread", "ThreadDeath", "ThreadGroup", "ThreadLocal",
     "Throwable", "TypeNotPresentException", "UnknownError", "UnsatisfiedLinkError",
     "UnsupportedClassVersionError", "UnsupportedOperationException", "VerifyError",
     "VirtualMachineError", "Void"}
)  # fmt: skip


class JavaRules:
    """The resolver's Java rules, over its indexes (`members`, `attributes`, ...)."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver

    def imported_members(self, facts: FileFacts, module: str, name: str) -> list[str]:
        """Java imports of what a class holds: `import static p.Util.helper` and `import
        static p.Util.*` (its static members), `import p.Outer.Inner` (a nested class): the
        members named `name` of the project's class `p.Util` (none when it is not ours)."""
        return self.r._members_of(self.imported_class(facts, module), name)[0]

    def imported_class(self, facts: FileFacts, module: str) -> list[ClassKey]:
        """The project's class a Java import's dotted path ends at (`p.Util`, `p.Outer.In`);
        Kotlin's too (`import p.Tools.safeHashMap` imports a member of the object p.Tools)."""
        parts = module.split(".")
        if facts.language not in ("java", "kotlin") or len(parts) < 2:
            return []
        for cut in range(len(parts) - 1, 0, -1):  # the longest package the project holds
            if files := self.r.module_files(facts, ".".join(parts[:cut])):
                break
        else:
            return []
        ids = self.r.top(files, parts[cut])[0]
        for part in parts[cut + 1 :]:
            ids = [
                s for owner in ids for s in self.r.members.get(self.r._key(owner), {}).get(part, [])
            ]
        return [self.r._key(sid) for sid in ids if self.r.symbols[sid].kind in CLASS_KINDS]

    def sees_nested(self, path: str, caller: str, sym: Symbol) -> bool:
        """Whether Java code in `caller` sees `sym` by its bare name: a top-level class, a
        class nested in one that encloses the caller, or in a class one of those extends by
        that name (`State` of `AbstractCircuitBreaker` in its subclass). `MemberUtils.Executable`
        is no `Executable` to the rest of the package, which means java.lang.reflect's."""
        outer = sym.parent
        if not outer or (sym.path == path and (caller == outer or caller.startswith(outer + "."))):
            return True
        outer_name = outer.rpartition(".")[2]
        enclosing = caller
        while enclosing:
            bases = self.r.bases.get((path, enclosing), [])
            if any(text.rpartition(".")[2] == outer_name for _, text in bases):
                return True
            enclosing = enclosing.rpartition(".")[0]
        return False

    def static_field(self, facts: FileFacts, receiver: str) -> list[ClassKey]:
        """The classes of a field Java imports statically (`import static
        p.CSVFormat.RFC4180` ... `RFC4180.getCommentMarker()`), by its declared type."""
        for imp in facts.imports:
            if imp.name not in (receiver, "*"):
                continue
            for key in self.imported_class(facts, imp.module):
                for path, text in self.r.attributes.get(key, {}).get(receiver, [])[:1]:
                    return self.r.type_keys(self.r.files[path], text.removeprefix(ALIAS))
        return []
