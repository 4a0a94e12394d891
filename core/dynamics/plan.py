"""The evaluation plan of a run: how prepare() chose to evaluate its equations, and why.

It goes with the results (and the results file), the CLI prints its line, the app shows it with the run: a
run that does not run compiled, or not on the constant matrices, says so and why where the user looks.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from core.dynamics.integrators import METHODS


@dataclass(frozen=True)
class Plan:
    """How a run evaluates its equations.

    Attributes
    ----------
    formulation : str
        'joint' or 'cartesian', and `formulation_why` (the setting, or what 'auto' found).
    compiled : bool
        Whether the kernels run compiled (numba), and `compiled_why`: asked for, in the cache, or why not.
    rates : str
        Joint coordinates: 'constant matrices', or 'assembled at every evaluation' and why; Cartesian: assembled at
        every evaluation.
    steps : str
        How the integrator takes its steps (in the kernel between output samples, or one by one).
    samples : str
        How an output sample is worked out.
    """

    formulation: str
    formulation_why: str
    compiled: bool
    compiled_why: str
    rates: str
    steps: str
    samples: str

    def line(self) -> str:
        """One line for a terminal or a status bar."""
        how = "compiled" if self.compiled else "Python"
        return f"{self.formulation} coordinates, {how} ({self.compiled_why}); rates: {self.rates}; steps: {self.steps}"

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def plan_line(settings: dict) -> str:
    """The plan line of a run from its results' settings ('' for results that carry no plan: older files)."""
    plan = settings.get("plan")
    return Plan(**plan).line() if isinstance(plan, dict) else ""


def step_plan(integrator: str, compiled: bool, events: bool, adaptive: bool = True) -> str:
    """How `integrator` takes its steps on a kernel, compiled or not, with events to watch or none."""
    where = "the kernel (compiled)" if compiled else "the kernel (Python)"
    method = METHODS[integrator]
    if method.LEAPS and not events and (adaptive or not method.ADAPTIVE):
        return f"{integrator}, the steps between output samples in one call of {where}"
    why = " (events are located between steps)" if events else ""
    return f"{integrator}, one step at a time on {where}{why}"
