"""Which program a run takes, compiled or not, and why, in the words the run's plan gives (core.dynamics.plan).

The kernels are one source (core.dynamics.kernels over the element registry) that runs as Python or compiled by
numba; compiling them takes minutes once per version and element kinds, then they load from the cache.
"""

from __future__ import annotations

from core.dynamics.integrators import METHODS
from core.dynamics.program import ahead
from core.dynamics.program.linker import CompileError, program
from core.model.entities import SimulationSettings

#: a run of at least this many evaluations repays compiling the kernels when they are not in the cache (about a
#: minute, once): at some 0.2-10 ms an evaluation in Python
COMPILE_COLD = 100_000


def choose_program(settings: SimulationSettings, compiled: str):
    """The kernels' program for a run (compiled or not) and why, in words. compiled: 'on' (CompileError when it
    cannot be done), 'off', or 'auto': compiled when the compiled kernels are in the cache, or when the run is
    long enough to repay compiling them (COMPILE_COLD evaluations: the integrator's typical count per step times
    t_end / step). A run's choice depends on the run and the cache alone, never on what the process did before."""
    if compiled == "off":
        return program(False), "not asked for"
    python = program(False)
    if compiled == "auto" and not python.cached():
        evaluations = METHODS[settings.integrator].evaluations * settings.t_end / settings.step
        if evaluations < COMPILE_COLD:
            return python, (f"the compiled kernels are not in the cache yet ('make venv' builds them), and a run of "
                            f"about {evaluations:.3g} evaluations does not repay compiling them")
    try:
        code = program(True)
    except ImportError as exc:
        why = str(exc) if isinstance(exc, ahead.LoadError) else f"numba cannot be imported ({exc})"
        if compiled == "on":
            raise CompileError(f"compiled: {why}") from None
        return python, why
    if code.shipped is not None:
        return code, f"{'asked for; ' if compiled == 'on' else ''}ahead of time, shipped with the app"
    if compiled == "on":
        return code, "asked for"
    return code, "the compiled kernels are in the cache" if python.cached() else "a long run repays compiling them"


def compile_note(settings: SimulationSettings, compiled: str) -> str:
    """What preparing a run with these settings will spend minutes on, in words ('' when nothing): compiling the
    kernels, when the run takes them compiled and they are not in the cache yet."""
    code, _ = choose_program(settings, compiled)
    if code.compiled and not code.cached():
        return ("compiling the kernels (once for this version and these element kinds: a few minutes; "
                "'make venv' compiles them ahead)")
    return ""
