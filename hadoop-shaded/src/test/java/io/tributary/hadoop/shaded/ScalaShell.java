package io.tributary.hadoop.shaded;

import scala.jdk.javaapi.CollectionConverters;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;
import scala.tools.nsc.interpreter.Results;
import scala.tools.nsc.interpreter.shell.ReplReporterImpl;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * The Scala 2.13 interpreter as spark-shell sets it up: code compiles against a class path, into
 * class-based wrappers written to a directory, which a SparkSession with
 * {@code spark.repl.class.outputDir} set to it serves to its executors (so closures typed here run
 * in tasks). Values are bound {@code @transient}, as spark-shell binds {@code spark}.
 */
final class ScalaShell implements AutoCloseable {
    private final StringWriter output = new StringWriter();
    private final IMain interpreter;

    ScalaShell(String classPath, Path classOutputDir) {
        Settings settings = new Settings();
        settings.processArguments(CollectionConverters.asScala(List.of(
            "-classpath", classPath, "-Yrepl-class-based", "-Yrepl-outdir", classOutputDir.toString())).toList(), true);
        interpreter = new IMain(settings, new ReplReporterImpl(settings, new PrintWriter(output, true)));
    }

    /** Binds a value of this JVM to a name of the interpreter, of the given Scala type. */
    void bind(String name, String type, Object value) {
        check(interpreter.bind(name, type, value, CollectionConverters.asScala(List.of("@transient")).toList()), "binding " + name);
    }

    /** Compiles and runs the code as one input, as spark-shell's {@code :paste} does. */
    void run(String code) {
        check(interpreter.interpret(code), code);
    }

    /** The Scala definition {@code val name = "value"}, on a line of its own. */
    static String stringVal(String name, String value) {
        return "val " + name + " = \"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n";
    }

    /** A value the code defined. */
    Object value(String name) {
        return interpreter.valueOfTerm(name).getOrElse(() -> {
            throw new AssertionError("the Scala code defined no value " + name + ":\n" + output);
        });
    }

    private void check(Results.Result result, String what) {
        if (result != Results.Success$.MODULE$) {
            throw new AssertionError("the Scala interpreter failed (" + result + ") on\n" + what + "\n" + output);
        }
    }

    @Override
    public void close() {
        interpreter.close();
    }
}
