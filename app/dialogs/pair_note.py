"""What a gear pair's macro-geometry gives, in the app's units: the transverse and normal modules, the mate's helix
angle (a bevel pair: its pitch angles), the centre distance, the contact ratios and the ratio
(core.geometry.macro.pair_geometry)."""

from __future__ import annotations

import math

from core.geometry.macro import pair_geometry


def pair_note(model, pair) -> str:
    """One line on GearPair `pair` (`model` unused: the note's kinds take the model, a compliant mesh needs it)."""
    geo = pair_geometry(pair.pair_spec())
    ratio = f"; ratio z2/z1 {pair.z2 / pair.z1:.4g}{_losses(pair)}"
    if pair.kind == "bevel":
        return (f"gamma2 = 90 - gamma1 = {math.degrees(geo.pitch_angle_2):.4f} deg; atan(z1/z2) = "
                f"{math.degrees(math.atan2(pair.z1, pair.z2)):.4f} deg; contact ratio "
                f"{geo.transverse_contact_ratio:.4f}{ratio}")
    modules = f"m_t {pair.module * 1e3:.6g} mm, m_n {pair.module * math.cos(pair.helix_angle) * 1e3:.6g} mm"
    # + 0.0: a spur gear 2's helix angle of -0.0 reads 0
    return (f"{modules}; helix angle gear 2 {math.degrees(geo.helix_angle_2) + 0.0:.4g} deg; centre distance "
            f"{geo.center_distance * 1e3:.6g} mm; contact ratio {geo.transverse_contact_ratio:.4f}"
            f" (+ overlap {geo.overlap_ratio:.4f}){ratio}")


def _losses(pair) -> str:
    """'; efficiency 0.95 both ways' and its bearing friction for a lossy pair ('' for a lossless one)."""
    if pair.loss_table:
        return "; losses from its loss table"
    if pair.efficiency == 1.0 and pair.bearing_friction == 0.0:
        return ""
    friction = f", bearing friction {pair.bearing_friction:.4g} N m" if pair.bearing_friction else ""
    return f"; efficiency {pair.efficiency:.4g} both ways{friction} (it sticks at rest while its losses hold)"
