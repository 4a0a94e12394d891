"""Undercut and tip thickness of an external gear cut by the basic rack (core.geometry.tooth_checks), against
the textbook limits and an involute drawn from its definition, and where a user meets them: the model check and
`geardyn gear`."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import brentq

from core.commands import AddItem
from core.geometry.macro import GearSpec
from core.geometry.tooth_checks import THIN_TIP, tip_thickness, tooth_warnings, undercut_limit
from core.model import builders
from core.model.files import load
from core.validation import validate
from tests.conftest import EXAMPLES, ROOT


def spur(teeth, x=0.0, alpha_deg=20.0, beta_deg=0.0):
    return GearSpec(module=0.002, teeth=teeth, pressure_angle=math.radians(alpha_deg),
                    helix_angle=math.radians(beta_deg), profile_shift=x, bore_diameter=0.004)


@pytest.mark.parametrize("alpha, x, z_min", [(20.0, 0.0, 17.1), (14.5, 0.0, 31.9), (20.0, 0.5, 8.55),
                                             (25.0, 0.0, 11.2)])
def test_the_undercut_limit_is_the_textbook_one(alpha, x, z_min):
    """z_min = 2 (1 - x) / sin^2(alpha) for a spur gear: 17 teeth at 20 deg, 32 at 14.5 deg (Niemann,
    Shigley), half of 17.1 with a shift of 0.5."""
    assert undercut_limit(spur(20, x, alpha)) == pytest.approx(z_min, abs=0.05)


def test_a_helical_gear_is_undercut_where_the_rack_reaches_below_the_interference_point():
    """At beta 15 deg: 15 teeth are undercut and 16 are not, as the rack's flank (1.0 m_n above the pitch line)
    against r sin^2(alpha_t), the interference point's depth, says."""
    for z, cut in ((15, True), (16, False)):
        spec = spur(z, beta_deg=15.0)
        alpha_t = math.atan(math.tan(spec.pressure_angle) / math.cos(spec.helix_angle))
        depth = spec.module * z / 2 * math.sin(alpha_t) ** 2
        assert (1.0 * spec.module * math.cos(spec.helix_angle) > depth) is cut
        assert (spec.teeth < undercut_limit(spec)) is cut
        assert any("undercut" in w for w in tooth_warnings(spec)) is cut


def involute_tip_thickness(z, m, alpha, x):
    """The transverse tip thickness of a spur gear drawn from the involute's definition: the curve unwound from
    the base circle, (r_b (cos u + u sin u), r_b (sin u - u cos u)), its polar angle at the pitch and the tip
    circle, and the tooth's half thickness at the pitch circle (pi / 2 + 2 x tan alpha) m / 2."""
    r, r_b = m * z / 2, m * z / 2 * math.cos(alpha)
    r_a = r + (1 + x) * m

    def point(u):
        return r_b * np.array([math.cos(u) + u * math.sin(u), math.sin(u) - u * math.cos(u)])

    def polar_at(radius):
        u = brentq(lambda u: np.hypot(*point(u)) - radius, 0.0, 3.0)
        return math.atan2(*point(u)[::-1])

    half_pitch = (math.pi / 2 + 2 * x * math.tan(alpha)) * m / 2 / r
    return 2 * r_a * (half_pitch - (polar_at(r_a) - polar_at(r)))


@pytest.mark.parametrize("z, x", [(20, 0.0), (12, 0.4), (30, -0.3), (10, 0.8)])
def test_the_tip_thickness_is_that_of_the_involute_drawn_from_its_definition(z, x):
    spec = spur(z, x)
    assert tip_thickness(spec) == pytest.approx(involute_tip_thickness(z, 0.002, math.radians(20), x), rel=1e-9)


def test_thin_and_pointed_tips_are_warned_of_and_ordinary_gears_are_not():
    assert tooth_warnings(spur(20)) == [] and tooth_warnings(spur(40, beta_deg=15)) == []
    thin = spur(12, 0.62)  # s_an just under 0.2 m_n
    assert 0 < tip_thickness(thin) < THIN_TIP * 0.002 and "nearly pointed" in tooth_warnings(thin)[0]
    pointed = spur(10, 1.0)
    assert tip_thickness(pointed) < 0 and "pointed" in tooth_warnings(pointed)[0]
    assert tooth_warnings(GearSpec(kind="inner", teeth=60, rim_diameter=0.2)) == []


def test_the_model_check_and_geardyn_gear_name_an_undercut_pinion():
    model = load(EXAMPLES / "helical_pair.gdyn")
    assert validate(model) == []
    AddItem(builders.gear_body("pinion", spur(10), position=(0.0, 0.2, 0.0))).do(model)
    found = [f for f in validate(model) if f.item == "pinion" and "undercut" in f.message]
    assert found and found[0].severity == "warning" and "z_min = 17.1" in found[0].message
    res = subprocess.run([sys.executable, "-m", "core.cli", "gear", "helical", "--module", "2", "--teeth", "10",
                          "--width", "20", "--bore", "5"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0 and "warning: 10 teeth are undercut" in res.stderr
    rows = {line.split()[0]: line.split()[1:] for line in res.stdout.splitlines()}
    assert float(rows["undercut_limit_teeth"][0]) == pytest.approx(17.0973, rel=1e-5)
    assert rows["tip_thickness"][1] == "[mm]"


def test_geardyn_pair_warns_of_an_undercut_pinion_and_not_of_a_ring():
    """A 3-tooth pinion against 40 teeth was reported with a contact ratio of 1.38 and nothing else."""
    def pair(*args):
        return subprocess.run([sys.executable, "-m", "core.cli", "pair", "--module", "2", *args, "--json"],
                              cwd=ROOT, capture_output=True, text=True)

    small = json.loads(pair("--z1", "3", "--z2", "40").stdout)["warnings"]
    assert len(small) == 1 and small[0].startswith("gear 1: 3 teeth are undercut")
    assert json.loads(pair("--z1", "20", "--z2", "40").stdout)["warnings"] == []
    assert json.loads(pair("--z1", "20", "--z2", "60", "--internal").stdout)["warnings"] == []


def bevel(teeth, pitch_deg):
    # a 9 mm face: within R_e / 3 of the 13-tooth mitre gear (9.19 mm), so only the undercut is at stake
    return GearSpec(kind="bevel", module=0.003, teeth=teeth, pressure_angle=math.radians(20.0),
                    pitch_angle=math.radians(pitch_deg), face_width=0.009, bore_diameter=0.004)


@pytest.mark.parametrize("pitch, cut, whole", [(45.0, 12, 13), (30.0, 14, 15), (11.3099, 16, 17)])
def test_a_bevel_gear_is_undercut_where_its_virtual_back_cone_gear_is(pitch, cut, whole):
    """A straight bevel gear has the teeth of its virtual spur gear, z / cos(gamma) teeth (Tredgold), which the
    tool undercuts below 2 / sin^2(alpha) = 17.1 at 20 deg: z_min = 17.1 cos(gamma), 12.1 for mitre gears (Niemann,
    Roloff/Matek's z_g = 2 cos(delta) / sin^2(alpha)). It was not checked: an 8-tooth bevel pinion passed."""
    assert undercut_limit(bevel(20, pitch)) == pytest.approx(2 / math.sin(math.radians(20.0)) ** 2
                                                             * math.cos(math.radians(pitch)), rel=1e-12)
    assert tooth_warnings(bevel(cut, pitch)) and "undercut" in tooth_warnings(bevel(cut, pitch))[0]
    assert tooth_warnings(bevel(whole, pitch)) == []


def test_geardyn_pair_reports_a_bevel_pair_and_its_undercut_pinion():
    """`geardyn pair --bevel`: the pitch angles atan(z1/z2) and their complement, the outer cone distance
    r1 / sin(gamma1), and the contact ratio of the virtual spur pair on the back cones (Tredgold) worked here from
    its radii; the 8-tooth pinion of an 8/40 pair is named, its 40-tooth wheel is not."""
    res = subprocess.run([sys.executable, "-m", "core.cli", "pair", "--bevel", "--z1", "20", "--z2", "40", "--module",
                          "3", "--width", "20", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    g1 = math.atan(20 / 40)
    assert data["pitch_angle_1"] == pytest.approx(g1, rel=1e-12)
    assert data["pitch_angle_2"] == pytest.approx(math.pi / 2 - g1, rel=1e-12)
    assert data["outer_cone_distance"] == pytest.approx(0.030 / math.sin(g1), rel=1e-12)
    m, a = 0.003, math.radians(20.0)
    rv = [0.030 / math.cos(g1), 0.060 / math.sin(g1)]  # back-cone radii: r / cos(gamma)
    path = sum(math.sqrt((r + m) ** 2 - (r * math.cos(a)) ** 2) for r in rv) - sum(rv) * math.sin(a)
    assert data["virtual_contact_ratio"] == pytest.approx(path / (math.pi * m * math.cos(a)), rel=1e-12)
    assert "center_distance" not in data and data["warnings"] == []
    small = subprocess.run([sys.executable, "-m", "core.cli", "pair", "--bevel", "--z1", "8", "--z2", "40",
                            "--module", "3", "--json"], cwd=ROOT, capture_output=True, text=True)
    warned = json.loads(small.stdout)["warnings"]
    assert len(warned) == 1 and warned[0].startswith("gear 1: 8 teeth are undercut")
