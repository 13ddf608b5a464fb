"""Starting a Spark session, and why it did not start, in one line: :func:`session`, :func:`reason`.

pyspark reports a session that cannot start with a Python traceback around the
JVM's stack trace, after the JVM has written its log to stderr, and a standalone
master that does not answer is asked again for about a minute. :func:`session`
checks first what it can check at once (a Java runtime where ``spark-submit``
looks for one; a ``spark://`` master that accepts a connection), waits at most
:data:`MASTER_TIMEOUT` seconds for such a master to register the application,
reads the JVM's output while Spark starts, and
raises :class:`SessionError` whose message is the reason: the Java exception's
message, else the JVM's last error line. :func:`reason` gives the same one line
for a job that fails later (a task's Python error, a file Spark cannot read).
"""
from __future__ import annotations

import codecs
import os
import re
import shutil
import socket
import sys
import threading
from typing import Any

MASTER_TIMEOUT = 30.0
"""Seconds a ``spark://`` master has to accept a connection, and then to register the application, before the session
is refused (Spark itself asks a master three times, 20 s apart, and does not say why it waits)."""

KEPT = 1 << 16
"""Characters of the JVM's output kept while Spark starts: where its error is."""

_JAVA_ERROR = re.compile(r"^(?:Exception in thread \"[^\"]*\" )?(?:[\w$]+\.)+[\w$]*(?:Exception|Error): (.+)$", re.M)


class SessionError(RuntimeError):
    """Spark did not start; the message says why, in one line."""


class _Output:
    """The JVM's stderr, read by a thread: kept while Spark starts (the reason it fails is there), then written on
    to this process's stderr (``quiet``: only when it is a terminal, where it shows Spark's progress bar)."""

    def __init__(self, fd: int) -> None:
        self.fd, self.kept, self.starting, self.quiet = fd, "", True, False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, name="spark-jvm-stderr", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        while chunk := os.read(self.fd, 1 << 16):
            text = decode(chunk)
            with self.lock:
                if self.starting:
                    self.kept = (self.kept + text)[-KEPT:]
                    continue
                stream = sys.stderr
                if stream is not None and (not self.quiet or stream.isatty()):
                    stream.write(text)
                    stream.flush()
        os.close(self.fd)

    def begin(self) -> None:
        with self.lock:
            self.starting, self.kept = True, ""

    def started(self, quiet: bool) -> None:
        """Spark is up: what it wrote while starting is shown (not when ``quiet``), and what it writes from now on."""
        with self.lock:
            self.starting, self.quiet = False, quiet
            if not quiet and self.kept and sys.stderr is not None:
                sys.stderr.write(self.kept)
            self.kept = ""

    def failed(self, exited: bool) -> str:
        """What the JVM wrote while Spark tried to start; ``exited``: all of it (the JVM is exiting)."""
        if exited:
            self.thread.join(timeout=10)
        with self.lock:
            return self.kept


_OUTPUT: _Output | None = None
"""The output of the JVM this module started (pyspark keeps one JVM a process, and starts later sessions in it)."""


def check_java() -> None:
    """A Java runtime where ``spark-submit`` looks for one: ``$JAVA_HOME/bin/java``, else ``java`` on PATH.

    Raises:
        SessionError: none there.
    """
    home = os.environ.get("JAVA_HOME")
    if home:
        if not os.access(os.path.join(home, "bin", "java"), os.X_OK):
            raise SessionError(f"JAVA_HOME={home} holds no Java runtime (no {os.path.join(home, 'bin', 'java')}); "
                               "point it to a Java 17 or later, or unset it to use the java on PATH")
    elif shutil.which("java") is None:
        raise SessionError("no Java runtime: JAVA_HOME is not set and no java is on PATH (pyspark 4 needs Java 17 "
                           "or later; on Debian: apt-get install openjdk-17-jre-headless)")


def check_master(master: str, timeout: float = MASTER_TIMEOUT) -> None:
    """A ``spark://host:port[,host:port...]`` master accepts a connection within ``timeout`` seconds (one of its
    hosts does); other masters are Spark's to check.

    Raises:
        SessionError: no host answered, with the last host's error.
    """
    if not master.startswith("spark://"):
        return
    hosts = master[len("spark://"):].split(",")
    failures = []
    for host in hosts:
        name, _, port = host.rpartition(":")
        if not name or not port.isdigit():
            return  # Spark names the malformed address
        try:
            with socket.create_connection((name.strip("[]"), int(port)), timeout=timeout):
                return
        except OSError as error:
            failures.append(error.strerror or str(error) or type(error).__name__)
    raise SessionError(f"no Spark master answers at {', '.join(hosts)} (waited up to {timeout:g} s a host: "
                       f"{failures[-1]})")


def _start(conf: Any, gateway: Any, timeout: float | None) -> None:
    """A SparkContext of ``conf``, waiting at most ``timeout`` seconds for it (None: as long as Spark takes).

    A standalone master that never answers leaves Spark's constructor waiting
    for about a minute, then returns a stopped context: here the wait is cut at
    ``timeout`` (the constructor goes on in its thread, which ends with it), and
    a stopped context is refused too.
    """
    from pyspark import SparkContext

    if timeout is None:
        SparkContext(conf=conf, gateway=gateway)
        return
    failed: list[BaseException] = []

    def start() -> None:
        try:
            SparkContext(conf=conf, gateway=gateway)
        except BaseException as error:  # raised again in the caller's thread
            failed.append(error)

    thread = threading.Thread(target=start, name="spark-context", daemon=True)
    thread.start()
    thread.join(timeout)
    master = conf.get("spark.master")
    if thread.is_alive():
        raise SessionError(f"the master {master} registered no application within {timeout:g} s (something accepts "
                           "connections there, but does not answer as a Spark master)")
    if failed:
        raise failed[0]
    context = SparkContext._active_spark_context
    if context is None or context._jsc.sc().isStopped():
        raise SessionError(f"the master {master} did not take the application (Spark stopped it while starting)")


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), text.strip())


def reason(error: BaseException, output: str = "") -> str:
    """Why Spark failed, in one line: the innermost Java exception's message (a Py4JJavaError), the last line of a
    Python worker's traceback (a PythonException), the JVM's last error line in ``output``, or the error's first
    line."""
    java = getattr(error, "java_exception", None)
    if java is not None:
        try:
            while java.getCause() is not None:
                java = java.getCause()
            message = java.getMessage() or java.toString()
            return " ".join(_first_line(str(message)).split())
        except Exception:  # the JVM is gone: read the text instead
            pass
    if type(error).__name__ == "PythonException":
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        if lines:
            return lines[-1]
    found = _JAVA_ERROR.findall(output)
    if found:
        return found[-1].strip()
    lines = [line.strip() for line in output.splitlines() if line.strip() and not line.startswith(("\tat ", "  at "))]
    if lines and "JAVA_GATEWAY_EXITED" in str(error):
        return lines[-1]
    return _first_line(str(error)) or type(error).__name__


def session(master: str, app_name: str = "nested-span-f1", *, quiet: bool = False, timeout: float = MASTER_TIMEOUT,
            **config: str) -> Any:
    """A Spark session on ``master`` (``local[2]``, ``spark://host:7077``, ``yarn``...) with ``config`` set, or the
    active session (Spark keeps one a process; its master stays).

    The JVM this starts writes to this process's stderr once Spark is up; ``quiet``
    drops what it wrote while starting and shows the rest only on a terminal. A
    ``spark://`` master has ``timeout`` seconds to accept a connection and as many
    to register the application.

    Raises:
        SessionError: Spark did not start (no Java runtime, a master that does not answer, a master URL Spark
            refuses...), the reason in one line.
    """
    global _OUTPUT
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    if SparkContext._active_spark_context is not None:
        builder = SparkSession.builder.master(master).appName(app_name)
        for key, value in config.items():
            builder = builder.config(key, value)
        return builder.getOrCreate()
    conf = SparkConf().setMaster(master).setAppName(app_name).setAll(list(config.items()))
    check_master(master, timeout)
    gateway, output, launching = None, _OUTPUT, False
    try:
        if SparkContext._gateway is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
            check_java()
            read, write = os.pipe()
            output, launching = _Output(read), True
            try:
                gateway = launch_gateway(conf, popen_kwargs={"stderr": write})
            finally:
                os.close(write)  # the JVM holds the other end: the thread reads to its end
            _OUTPUT, launching = output, False
        if output is not None:
            output.begin()
        _start(conf, gateway, timeout if master.startswith("spark://") else None)
        spark = SparkSession.builder.getOrCreate()
    except SessionError:
        raise
    except Exception as error:
        # a JVM that exited wrote its reason; one that runs answers with its exception
        raise SessionError(reason(error, output.failed(launching) if output is not None else "")) from error
    if output is not None:
        output.started(quiet)
    return spark


__all__ = ["MASTER_TIMEOUT", "SessionError", "check_java", "check_master", "reason", "session"]
