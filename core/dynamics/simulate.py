"""Run a model to the end in one call: the blocking wrapper of core.dynamics.run for the CLI, tests and studies."""

from __future__ import annotations

from core.dynamics.results import Results
from core.dynamics.run import prepare
from core.model.model import Model


def simulate(model: Model, t_end: float | None = None, step: float | None = None, integrator: str | None = None,
             output_step: float | None = None, progress=None, cancel=None, check: bool = True,
             formulation: str | None = None, **options) -> Results:
    """Simulate `model` from 0 to t_end [s]; settings default to the model's.

    A run that fails (singular system, divergence, NaN) or is cancelled keeps
    every output sample computed up to then and says why and when in `message`.

    Parameters
    ----------
    progress : callable(fraction, message), optional
        Called at a throttled rate (see core.dynamics.run.Run.progress_interval).
    cancel : callable() -> bool, optional
        Checked before every step; True cancels the run.
    check : bool
        Refuse models with validation errors (ModelError).
    formulation : str, optional
        auto, joint or cartesian (default: the model's setting); see core.dynamics.formulations.
    options
        Settings fields (rtol, atol, rho_inf, ...) or further integrator options.
    """
    run = prepare(model, t_end, step, integrator, output_step, formulation, check=check, progress=progress, **options)
    run._cancel_check = cancel
    return run.run()
