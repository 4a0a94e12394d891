"""Run a model: assemble, make the initial speeds consistent, integrate, sample the channels."""

from __future__ import annotations

import numpy as np

from core.dynamics.integrators import make_integrator
from core.dynamics.results import Results, ordered_names
from core.dynamics.formulations import assemble
from core.model.model import Model, ModelError
from core.model.validation import validate


def simulate(model: Model, t_end: float | None = None, step: float | None = None, integrator: str | None = None,
             output_step: float | None = None, progress=None, cancel=None, check: bool = True,
             formulation: str | None = None, **options) -> Results:
    """Simulate `model` from 0 to t_end [s]; settings default to the model's.

    A run that fails (singular system, divergence, NaN) or is cancelled keeps
    every output sample computed up to then and says why in `message`.

    Parameters
    ----------
    progress : callable(fraction, message), optional
    cancel : callable() -> bool, optional
    check : bool
        Refuse models with validation errors.
    formulation : str, optional
        auto, joint or cartesian (default: the model's setting); see core.dynamics.formulations.
    options
        Passed to the integrator (rtol, atol for dopri5; rho_inf for generalized_alpha).
    """
    st = model.settings
    t_end = st.t_end if t_end is None else t_end
    step = st.step if step is None else step
    output_step = (st.output_step if output_step is None else output_step)
    integrator = st.integrator if integrator is None else integrator
    for name, value in (("t_end", t_end), ("step", step), ("output_step", output_step)):
        if not (value > 0 and np.isfinite(value)):
            raise ModelError(f"{name}: must be a number above 0 s, got {value}")
    if output_step < step:
        output_step = step
    if check:
        errors = [f for f in validate(model) if f.severity == "error"]
        if errors:
            raise ModelError(f"the model has {len(errors)} error(s); first: {errors[0]}")
    system = assemble(model, formulation)
    y0, change = system.consistent_initial_state()
    findings = []
    if change > 1e-9:
        findings.append(f"initial speeds were projected onto the constraints (largest change {change:.3g})")
    if st.static_equilibrium:
        y0, note = system.mesh_equilibrium(y0)
        if note:
            findings.append(note)
    solver = make_integrator(integrator, system.evaluate, 0.0, y0, t_end, step, system.space,
                             project=lambda y: system.consistent_velocities(system.project(y))[0], **options)
    n_out = int(np.floor(t_end / output_step + 1e-9)) + 1
    grid = np.arange(n_out) * output_step
    first = system.channels(0.0, y0)
    names = ordered_names(list(first))
    rows = [[first[n] for n in names]]
    times = [0.0]
    status, message = "finished", ""
    k = 1
    while k < n_out:
        if cancel and cancel():
            status, message = "cancelled", f"cancelled at t = {solver.t:.6g} s"
            break
        with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is caught by the NaN check
            state = solver.step(t_stop=grid[k])
        if state == "failed":
            status, message = "failed", f"{solver.message} (results kept up to t = {times[-1]:.6g} s)"
            break
        if solver.t >= grid[k] - 1e-9 * step:
            try:
                ch = system.channels(solver.t, solver.y)
            except np.linalg.LinAlgError as exc:
                status, message = "failed", f"singular system at t = {solver.t:.9g} s: {exc}"
                break
            rows.append([ch[n] for n in names])
            times.append(solver.t)
            k += 1
            if progress:
                progress(solver.t / t_end, f"t = {solver.t:.4g} s")
        if state == "finished" and k < n_out:
            break
    return Results(names, np.array(times), np.array(rows), status, message, findings, solver.nsteps, solver.nfev)
