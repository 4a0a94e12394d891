"""How fast one joint of a model's gear train turns per rad/s of another: the ratio a torque is referred through.

A torque T on a joint that turns at r times the input joint's speed does the work of r T at the input (its
power is T w = r T w_in): that is the torque referred to the input, and its sign says whether it turns the
train with the drive or against it. On an external pair the gears turn apart (r < 0), so a load that brakes the
driven gear is positive there when the drive on the pinion is positive.

The ratio comes from the rows every run is held by (core.dynamics): the motion they leave free, with each
compliant mesh taken as its rigid pair (a mesh's deflection is not the train's ratio), a speed motor whose law
is 0 at every time holding its joint (a planetary's held ring), and the other speed motors left out (they drive
the train; they do not change its ratios). A joint's speed is read off by the row of a speed motor put on it,
the one definition of a joint's relative speed.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from core.dynamics.formulations import assemble
from core.dynamics.formulations.system import RANK_TOLERANCE
from core.dynamics.program.linker import loaded
from core.errors import ModelError
from core.model.entities import CompliantMesh, RevoluteJoint, SpeedMotor, TimeLaw
from core.model.model import Model

#: the names of the two speed motors that read the joints' speeds (in a copy of the model only)
PROBES = ("train ratio: joint", "train ratio: reference")


def speed_ratio(model: Model, joint: str, reference: str) -> float | None:
    """The relative speed of revolute joint `joint` (body j against body i, about its axis) per rad/s of revolute
    joint `reference`, as the model's gear train ties them; None where it does not tie them to one motion (the
    train left with no freedom or with more than one, the reference held still, a joint that is not a revolute
    joint of the model, or a model with structural errors).

    A planetary set with its ring held: the carrier turns at z_s / (z_s + z_r) of the sun's speed.
    """
    if not all(isinstance(model.joints.get(name), RevoluteJoint) for name in (joint, reference)):
        return None
    if model.structural_problems():
        return None
    probed = model.copy()
    probed.forces = {name: f for name, f in model.forces.items() if not isinstance(f, CompliantMesh)
                     and not (isinstance(f, SpeedMotor) and not f.law.is_zero())}
    for name, on in zip(PROBES, (joint, reference)):
        probed.forces[name] = SpeedMotor(name, on, TimeLaw())
    try:
        system = assemble(probed, compiled=loaded())
    except ModelError:  # no formulation takes the model (the run says why)
        return None
    jac, _, off, _ = system.kernel.jacobian(system.initial_state(), system.velocities)
    reads = [system.asm.element_of(name).row0 for name in PROBES]
    held = jac[[r for r in range(len(jac)) if not off[r] and r not in reads]]
    free = scipy.linalg.null_space(held, rcond=RANK_TOLERANCE) if held.size else np.eye(system.velocities)
    if free.shape[1] != 1:
        return None
    w_joint, w_reference = (float(jac[r] @ free[:, 0]) for r in reads)
    if abs(w_reference) <= RANK_TOLERANCE * float(np.linalg.norm(jac[reads[1]])):
        return None
    return w_joint / w_reference
