"""Start a headless X server and desktop emulators for the other-emulator tests.

The cartridge's own tests run it in cynes; players run it in FCEUX, Nestopia,
Mesen and on flash carts.  These helpers run Debian's emulators without a
screen, so a test can check that the ROM (header, mapper, CHR) works in an
emulator written by other people:

    with XServer.xvfb() as x:                      # or XServer.xorg_dummy()
        proc = start_program([...], env=x.env(), log=...)

Every process is started in its own session and ended with its whole
process group (`stop_process`) on every exit path; no fixed sleeps: the X
server reports its display number when it is ready (-displayfd).

Missing programs raise `ProgramMissing`, which the tests turn into a skip
unless XIANGQI_REQUIRE_EMULATORS=1 (set by .ci/run), where it is a failure.
"""
from __future__ import annotations

import ctypes
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

# Debian installs games in /usr/games, which a login shell's PATH has but a
# CI or cron environment often does not.
EXTRA_PATH = ("/usr/games", "/usr/local/games", "/usr/bin", "/usr/sbin")
REQUIRE_ENV = "XIANGQI_REQUIRE_EMULATORS"


class ProgramMissing(RuntimeError):
    """A program the test needs is not installed."""


class ProgramFailed(RuntimeError):
    """A program did not start, or stopped answering; the message has its log."""


def emulators_required() -> bool:
    """True when a missing emulator must fail the test instead of skipping it."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def skip_or_fail(exc: ProgramMissing) -> None:
    """A missing emulator (or X server): skip the test, or fail it when
    XIANGQI_REQUIRE_EMULATORS=1."""
    import pytest
    if emulators_required():
        pytest.fail(f"{exc} ({REQUIRE_ENV} is set, so this is a failure)", pytrace=False)
    pytest.skip(str(exc))


def find_program(name: str, package: str) -> str:
    """The path of `name` (PATH, then /usr/games and friends); raises
    ProgramMissing naming the Debian package to install."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *EXTRA_PATH])
    found = shutil.which(name, path=path)
    if found is None:
        raise ProgramMissing(f"'{name}' is not installed (Debian package {package}: "
                             f"apt-get install {package})")
    return found


def log_tail(path: Path, lines: int = 25) -> str:
    """The last lines of a log file, indented, for error messages."""
    try:
        text = path.read_text(errors="replace").rstrip().splitlines()
    except FileNotFoundError:
        return "    (no log)"
    return "\n".join("    " + line for line in text[-lines:]) or "    (empty)"


PR_SET_PDEATHSIG = 1         # linux/prctl.h


def _die_with_the_test() -> None:
    """In the child, before exec: the kernel sends it SIGKILL when the test
    process dies, however it dies (a timeout's SIGKILL included), so no
    emulator is left running without its driver."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def start_program(argv: list[str], env: dict[str, str] | None, log: Path,
                  pass_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    """Start argv in a new session (its own process group), stdout and
    stderr to `log`; it dies with the test process."""
    with open(log, "wb") as out:
        return subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, pass_fds=pass_fds,
                                start_new_session=True, preexec_fn=_die_with_the_test)


def stop_process(proc: subprocess.Popen | None, grace: float = 3.0) -> None:
    """End proc and its process group: SIGTERM, then SIGKILL after `grace`
    seconds; reaps it.  The group is signalled only while its leader is not
    yet reaped, so its id cannot belong to anyone else."""
    if proc is None or proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


# An Xorg "dummy" screen with a real 60 Hz mode line.  Xvfb reports a
# refresh rate of 0 Hz, and Nestopia divides its frame pacing by the
# display's refresh rate (SIGFPE at start-up under Xvfb).
XORG_DUMMY_CONF = """\
Section "ServerFlags"
    Option "AutoAddDevices" "false"
    Option "AutoAddGPU" "false"
EndSection
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 16384
EndSection
Section "Monitor"
    Identifier "monitor"
    HorizSync 28.0-80.0
    VertRefresh 48.0-75.0
    Modeline "800x600_60" 40.00 800 840 968 1056 600 601 605 628 +hsync +vsync
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "monitor"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Modes "800x600_60"
    EndSubSection
EndSection
"""


class XServer:
    """A headless X server on a free display, for as long as the `with` lasts."""

    def __init__(self, argv: list[str], name: str, timeout: float = 30.0) -> None:
        self.argv, self.name, self.timeout = argv, name, timeout
        self.dir = Path(tempfile.mkdtemp(prefix=f"xiangqi-{name.lower()}-"))
        self.log = self.dir / "server.log"
        self.proc: subprocess.Popen | None = None
        self.display = ""

    @classmethod
    def xvfb(cls) -> "XServer":
        """Xvfb (Debian xvfb): 800x600, 24-bit.  It exits by itself when its
        last client (the emulator) has gone, even if the test process was
        killed and could not end it (-terminate)."""
        exe = find_program("Xvfb", "xvfb")
        return cls([exe, "-screen", "0", "800x600x24", "-nolisten", "tcp", "-terminate"], "Xvfb")

    @classmethod
    def xorg_dummy(cls) -> "XServer":
        """Xorg with the dummy video driver (Debian xserver-xorg-video-dummy):
        an 800x600 screen at 60 Hz.  Xorg only takes a -config path of its
        own choosing unless it runs as root, so this needs root."""
        exe = find_program("Xorg", "xserver-xorg-core")
        if not Path("/usr/lib/xorg/modules/drivers/dummy_drv.so").exists():
            raise ProgramMissing("Xorg's dummy video driver is not installed (Debian package "
                                 "xserver-xorg-video-dummy)")
        if os.geteuid() != 0:
            raise ProgramMissing("Xorg with a dummy screen needs root (-config outside /etc/X11)")
        server = cls([exe, "-noreset", "-nolisten", "tcp"], "Xorg")
        conf = server.dir / "xorg.conf"
        conf.write_text(XORG_DUMMY_CONF)
        server.argv += ["-config", str(conf), "-logfile", str(server.dir / "Xorg.log")]
        return server

    def __enter__(self) -> "XServer":
        read_fd, write_fd = os.pipe()
        try:
            self.proc = start_program([*self.argv, "-displayfd", str(write_fd)], None, self.log,
                                      pass_fds=(write_fd,))
            os.close(write_fd)
            write_fd = -1
            self.display = ":" + self._read_display(read_fd)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        return self

    def _read_display(self, fd: int) -> str:
        """The display number the server writes to -displayfd once it accepts
        connections."""
        deadline = time.monotonic() + self.timeout
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProgramFailed(f"{self.name} gave no display number within {self.timeout:.0f} s; "
                                    f"its log:\n{log_tail(self.log)}")
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if ready:
                chunk = os.read(fd, 64)
                if not chunk:
                    raise ProgramFailed(f"{self.name} exited (code {self.proc.wait()}) before it was "
                                        f"ready; its log:\n{log_tail(self.log)}")
                data += chunk
        return data.decode().strip()

    def env(self, home: Path | None = None) -> dict[str, str]:
        """The environment for a program on this display: DISPLAY set, no
        Wayland, no sound device, HOME and the XDG directories in `home` (a
        fresh directory per run, so no user configuration leaks in and
        nothing is written to the real home)."""
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "XAUTHORITY")}
        env.update(DISPLAY=self.display, SDL_AUDIODRIVER="dummy", QT_QPA_PLATFORM="xcb")
        if home is not None:
            for sub in (".config", ".local/share", ".cache", "runtime"):
                (home / sub).mkdir(parents=True, exist_ok=True)
            (home / "runtime").chmod(0o700)
            env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                       XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"),
                       XDG_RUNTIME_DIR=str(home / "runtime"))
        return env

    def __exit__(self, *exc) -> None:
        stop_process(self.proc)
        self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)
