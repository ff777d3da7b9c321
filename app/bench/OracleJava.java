// The Java oracle of `repolens-tui-bench graph-oracle --language java`: javac's own
// attribution says which method or constructor each call site invokes. Run in source-file
// mode (`java OracleJava.java`), so nothing is built or installed.
//
// Reads on stdin: the root on the first line, then one site per line,
// "path<TAB>line<TAB>column" (path relative to the root, line 1-based, column 0-based in
// characters). Writes one line per site: "null" when no call starts there, else a JSON
// array of [path or "" outside the root, line, name] (empty: javac could not resolve it).
// Every .java file under the root is compiled together; missing libraries only leave the
// calls that need them unresolved.

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class OracleJava {
  public static void main(String[] args) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Path root = Paths.get(in.readLine()).toRealPath();
    List<String> sites = new ArrayList<>();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!line.isEmpty()) sites.add(line);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
              .sorted()
              .collect(Collectors.toList());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> ignored = new DiagnosticCollector<>();
    StandardJavaFileManager manager =
        compiler.getStandardFileManager(ignored, Locale.ROOT, StandardCharsets.UTF_8);
    List<String> options =
        List.of("-proc:none", "-encoding", "UTF-8", "-XDshould-stop.ifError=FLOW", "-implicit:none");
    JavacTask task =
        (JavacTask)
            compiler.getTask(
                null, manager, ignored, options, null, manager.getJavaFileObjectsFromPaths(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    task.analyze();
    Trees trees = Trees.instance(task);
    Map<String, String> answers = new HashMap<>(); // "path\tline\tcolumn" -> JSON
    for (CompilationUnitTree unit : units) {
      String relative = root.relativize(Paths.get(unit.getSourceFile().toUri())).toString();
      new Calls(trees, unit, relative, root, answers).scan(unit, null);
    }
    StringBuilder out = new StringBuilder();
    for (String site : sites) out.append(answers.getOrDefault(site, "null")).append('\n');
    System.out.print(out);
  }

  /** Each call's answer, keyed by where its called name stands. */
  static final class Calls extends TreePathScanner<Void, Void> {
    private final Trees trees;
    private final CompilationUnitTree unit;
    private final String path;
    private final Path root;
    private final Map<String, String> answers;
    private final SourcePositions positions;

    Calls(Trees trees, CompilationUnitTree unit, String path, Path root, Map<String, String> a) {
      this.trees = trees;
      this.unit = unit;
      this.path = path;
      this.root = root;
      this.answers = a;
      this.positions = trees.getSourcePositions();
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
      ExpressionTree select = call.getMethodSelect();
      Element called = trees.getElement(new TreePath(getCurrentPath(), select));
      record(select, called instanceof ExecutableElement ? called : null); // else javac's guess
      return super.visitMethodInvocation(call, unused);
    }

    @Override
    public Void visitNewClass(NewClassTree call, Void unused) {
      Tree type = call.getIdentifier();
      if (type instanceof ParameterizedTypeTree) type = ((ParameterizedTypeTree) type).getType();
      Element called = trees.getElement(getCurrentPath());
      if (call.getClassBody() != null) { // `new Runnable() {...}`: the type it implements
        Element named = trees.getElement(new TreePath(getCurrentPath(), type));
        called = named instanceof TypeElement ? named : null;
      }
      record(type, called);
      return super.visitNewClass(call, unused);
    }

    /** The called name's position: an identifier's start, a member's last word. */
    private void record(Tree named, Element called) {
      long at;
      if (named instanceof IdentifierTree) {
        at = positions.getStartPosition(unit, named);
      } else if (named instanceof MemberSelectTree) {
        String name = ((MemberSelectTree) named).getIdentifier().toString();
        at = positions.getEndPosition(unit, named) - name.length();
      } else {
        return;
      }
      if (at < 0) return;
      LineMap lines = unit.getLineMap();
      long line = lines.getLineNumber(at);
      long column = at - lines.getStartPosition(line);
      answers.put(path + "\t" + line + "\t" + column, answer(called));
    }

    private String answer(Element called) {
      if (called instanceof TypeElement && called.asType().getKind() == TypeKind.DECLARED) {
        return declaration(called, called.getSimpleName().toString()); // an anonymous class's
      }
      if (called == null || !(called instanceof ExecutableElement)) return "[]";
      if (called.asType().getKind() == TypeKind.ERROR) return "[]"; // javac could not tell
      Element owner = called.getEnclosingElement();
      if (owner == null || owner.asType().getKind() == TypeKind.ERROR) return "[]";
      Element shown = called;
      String name = called.getSimpleName().toString();
      if (called.getKind() == ElementKind.CONSTRUCTOR) {
        name = called.getEnclosingElement().getSimpleName().toString();
      }
      TreePath declared = trees.getPath(shown);
      if (declared == null && called.getKind() == ElementKind.CONSTRUCTOR) {
        shown = called.getEnclosingElement(); // a default constructor: its class
        declared = trees.getPath(shown);
      }
      return declared == null ? "[[\"\", 0, " + quote(name) + "]]" : at(declared, name);
    }

    private String declaration(Element type, String name) {
      TreePath declared = trees.getPath(type);
      return declared == null ? "[[\"\", 0, " + quote(name) + "]]" : at(declared, name);
    }

    private String at(TreePath declared, String name) {
      CompilationUnitTree where = declared.getCompilationUnit();
      Path file = Paths.get(where.getSourceFile().toUri());
      if (!file.startsWith(root)) return "[[\"\", 0, " + quote(name) + "]]";
      long start = trees.getSourcePositions().getStartPosition(where, declared.getLeaf());
      long line = where.getLineMap().getLineNumber(start);
      return "[[" + quote(root.relativize(file).toString()) + ", " + line + ", " + quote(name) + "]]";
    }
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
