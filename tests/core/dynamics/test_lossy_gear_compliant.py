"""A lossy planetary on compliant meshes, as the Planetary Gearset dialog builds it (joints, ISO 6336 meshes,
every mesh at ETA), from rest: the losses slow it as the efficiency says.

A change that moved a compliant pair's losses onto gear 1 (508ef79, reverted) left this set stuck at rest under a
sun torque twice what it needs, with its run 'finished'.
"""

from __future__ import annotations

import math

import numpy as np

from core.commands import AddItem, Macro
from core.dynamics.run import prepare
from core.model import builders
from core.model.model import Model

ETA = 0.95


def _compliant_planetary(efficiency: float) -> Model:
    """24/24/72 at 2 mm, compliant meshes, the ring held, 1 N m on the sun and 0.5 N m against the carrier."""
    model = Model()
    items = builders.planetary_set(24, 24, 72, 3, 0.002, 0.02, math.radians(20), efficiency=efficiency)
    items += builders.compliant_meshes(items) + [builders.held_joint("ring_hold", "ring_joint"),
                                                 builders.constant_torque("sun_torque", "sun_joint", 1.0),
                                                 builders.constant_torque("carrier_load", "carrier_joint", -0.5)]
    Macro("planetary", [AddItem(i) for i in items]).do(model)
    return model


def test_a_compliant_lossy_planetary_from_rest_turns_its_carrier_slower_than_the_lossless_one_as_eta_says():
    """The carrier's speed after 50 ms, against the lossless set's: the sun's torque reaches the carrier scaled by
    ETA^2 at the least in the carrier's frame (the rigid set's test_losses_slow_the_planetary_as_the_efficiency_says),
    so the lossy carrier turns slower, but not by more than the whole torque's share that the losses take."""
    speeds = []
    for efficiency in (1.0, ETA):
        res = prepare(_compliant_planetary(efficiency), t_end=0.05, integrator="rk4", step=2e-5).run()
        assert res.status == "finished", res.message
        kinetic, potential, work, lost = (res[f"energy.{q} [J]"] for q in ("kinetic", "potential", "work",
                                                                             "dissipated"))
        assert np.abs(kinetic + potential + lost - work).max() <= 1e-5 * np.abs(work).max()
        speeds.append(res["carrier_joint.speed [rad/s]"][-1])
    lossless, lossy = speeds
    assert lossless > 0 and ETA ** 2 * lossless < lossy < lossless, speeds
