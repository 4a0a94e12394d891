"""The lossy gear pair's modes between steps (core.dynamics.elements.lossy_gear_pair is its physics): where it
starts, what its events switch to, and the sets of pairs the gear rows tie together.

Discrete states: the mode (forward, stuck, backward), the driving side, 'held', and a set's (below), held within
a step; two events watch them: 'stop' (rolling: the shaft reaches rest; stuck: the torque to hold passes what the
losses hold forwards) and 'flow' (rolling: the driving side's margin; stuck: backwards).

Pairs whose w_a the gear rows tie together (the meshes of a planetary set, a pinion driving two gears) stick and
roll as one set, and what each holds at rest is not determined (their locks repeat one another). The set's
first pair (its lead) holds the lock; the others, its members, stand at rest with the losses they have rolling
the way the set is pushed (the set's 'way'). The set breaks away exactly when the lead's torque passes its own
limit that way: every pair is then at the limit of its losses, as rolling at no acceleration. The members add
what they hold, tie w_a = c w_a(lead) times it, to the lead's other event, which so watches the set's torque
(the same in any split): when it passes half the lead's own limit the other way, the set is pushed that way and
the members take those losses (a band, so that a compliant set's ripple at rest does not turn it each time). A member's discrete states carry its tie: the lead's first event and c.

Where other rows impose w_a (a speed motor's law, a fixed joint), the lock would repeat them and what the pair
holds at rest is not determined: the imposed motion decides the mode, since a motor overcomes any loss. The pair
rolls the way that motion goes; while it stays at rest the pair is 'held': stuck without its lock, passing the
torque without loss, and its events watch w_a leave rest (HELD_SPEED).
"""

from __future__ import annotations

import numpy as np

from core.errors import ModesError
from core.dynamics.elements.lossy_gear_states import (DRIVES, HELD, HELD_SPEED, LEAD, MODE, TIE, TORQUE_FLOOR,
                                                     WAY, member)
from core.gearing.losses import BACKWARD, FORWARD, STUCK


class LossyGearModes:
    """The modes of a lossy pair (an Element's contract, part 4): its discrete states from ``disc0``, its events
    from ``event0``, its channels from ``modes_at``, and ``table``, ``ratio``, ``g1``, ``carrier``, ``axes`` of
    the element."""

    def states(self) -> list[tuple]:
        """Its discrete states (mode, 1 when gear 1 drives, 1 when held, way, lead, tie): each mode with either
        side driving, held at rest, and a set's lead either way (a member's rows are those of its mode)."""
        return ([(mode, drives, 0, 0, -1, 0.0) for mode in (FORWARD, STUCK, BACKWARD) for drives in (1, 0)]
                + [(STUCK, drives, 1, 0, -1, 0.0) for drives in (1, 0)]
                + [(STUCK, 1, 0, way, -1, 0.0) for way in (FORWARD, BACKWARD)])

    def event_names(self) -> list[str]:
        return [f"{self.name}: stop", f"{self.name}: flow"]

    def mode(self, system) -> int:
        """Its mode: STUCK for a set's member, which stands at rest with the losses of the way its set is pushed."""
        disc = system.kernel.disc
        return STUCK if member(disc, self.disc0) else int(disc[self.disc0 + MODE])

    def _drives(self, system) -> bool:
        """Whether gear 1 drives (as it rolls, or as a set's member would)."""
        return bool(system.kernel.disc[self.disc0 + DRIVES])

    def held(self, system) -> bool:
        return bool(system.kernel.disc[self.disc0 + HELD])

    def _set(self, system, mode: int | None = None, a_drives: bool | None = None, held: bool | None = None,
             way: int | None = None, lead: tuple | None = None) -> None:
        """Set the discrete states given: `way` a set's lead's (0 for none), `lead` a member's (that pair, c), ()
        for none."""
        disc = system.kernel.disc
        if mode is not None:
            disc[self.disc0 + MODE] = mode
        if a_drives is not None:
            disc[self.disc0 + DRIVES] = int(a_drives)
        if held is not None:
            disc[self.disc0 + HELD] = int(held)
        if way is not None:
            disc[self.disc0 + WAY] = way
        if lead is not None:
            disc[self.disc0 + LEAD], disc[self.disc0 + TIE] = (lead[0].event0, lead[1]) if lead else (-1, 0.0)
        system.rows_changed(0.0, None)

    def torques_at(self, system, t: float, y) -> tuple[float, float, float]:
        """tau_a, tau_b [N m] and w_a [rad/s] at (t, y), from its channels."""
        values = system.sample(t, y)[0]
        at = self.modes_at + 4
        return float(values[at]), float(values[at + 1]), float(values[at + 2])

    def start(self, system, y) -> tuple:
        """The first mode at the start: rolling the way gear 1 turns relative to the carrier, or settled at rest."""
        w_a = self.torques_at(system, 0.0, y)[2]
        if abs(w_a) < 1e-12:
            order = system.elements.index
            if any(order(pair) < order(self) for pair, _ in self.ties(system, 0.0, y)[0]):
                return y, []  # settled with a pair before it, which the rows tie it to
            y, note = self._settle(system, 0.0, y)
            if self.mode(system) != STUCK:
                return y, []
            if self.held(system):
                return y, [f"{self.name} starts {note}"]
            return y, [f"{self.name} starts stuck: the torque it must hold at rest is within what its losses hold "
                       f"there; {note}"]
        self._set(system, mode=FORWARD if w_a > 0 else BACKWARD)
        self._choose_side(system, 0.0, y)
        return y, []

    def on_event(self, system, i: int, t: float, y) -> tuple:
        """Event i ('stop' 0, 'flow' 1) at (t, y): the new mode, the state and what changed."""
        disc = system.kernel.disc
        if member(disc, self.disc0):  # a set's member: its driving side, as the set would roll, changed
            return y, f"at rest with its set: {self._choose_side(system, t, y, flip=True)} as it would roll"
        mode = self.mode(system)
        if mode != STUCK:
            return (y, self._choose_side(system, t, y, flip=True)) if i == 1 else self._settle(system, t, y,
                                                                                               stopped=mode)
        # stuck: the torque to hold has reached what the losses hold forwards ('stop') or backwards ('flow'); for a
        # set's lead whose way is the other, the set's torque passed its watch: it is pushed that way now
        towards = FORWARD if i == 0 else BACKWARD
        way = int(disc[self.disc0 + WAY])
        return self._settle(system, t, y, towards=towards) if way and way != towards else self._settle(
            system, t, y, towards)

    def _choose_side(self, system, t: float, y, flip: bool = False) -> str:
        """The driving side of a rolling pair that is consistent with the torques it gives (the larger margin if
        both or neither are: they differ only by round-off there). `flip` when the driving side's margin has just
        run out: the torque passes through zero there and both margins are round-off, so they are taken a moment
        later (a millionth of a step, along each side's rate)."""
        dt = 1e-6 * system.model.settings.step if flip else 0.0
        margins, before = {}, self._drives(system)
        for side in (True, False):
            self._set(system, a_drives=side)
            ahead = system.space.retract(y, dt * system.evaluate(t, y)) if flip else y
            margins[side] = float(system.kernel.events(t + dt, ahead)[self.event0 + 1])
        a_drives = margins[True] >= margins[False]
        if flip and margins[True] == margins[False]:  # no torque yet (a compliant mesh from rest): the side that
            a_drives = not before  # ran out is the one not to keep
        self._set(system, a_drives=a_drives)
        return f"gear {1 if a_drives else 2} drives"

    def _settle(self, system, t: float, y, breaks: int = 0, stopped: int = 0, towards: int = 0) -> tuple:
        """Hold the pair at rest, then let it stay stuck or start rolling from what it has to hold. `breaks`
        (FORWARD or BACKWARD) when an event found the torque at a limit of what the losses hold: it starts rolling
        that way. `stopped` (FORWARD or BACKWARD) when rolling that way just came to rest: the pair does not start
        again that way at the same instant (its speed fell to zero, so that motion is not consistent there; a tiny
        efficiency puts the holding limits within round-off of the torque), and stays stuck unless the torque
        moves it the other way. `towards`: a set's way, from its lead's event. The pairs the rows tie to it settle
        with it as one set (`_settle_set`); a pair whose speed other rows impose follows them (`_follow`)."""
        group, imposed = self.ties(system, t, y)
        if imposed is not None:
            return self._follow(system, t, y, imposed)
        if len(group) > 1:
            return self._settle_set(system, t, y, group, breaks or towards, bool(breaks), stopped, bool(towards))
        self._set(system, mode=STUCK, held=False, way=0, lead=())
        system.rows_changed(t, y)
        y = system.consistent_velocities(y, t)[0]
        held, low, high, scale = self._holding(system, t, y)
        way = breaks
        beyond = 1e-6 * scale  # a torque this far past a limit is not round-off of it: it moves the pair that way
        if not way and held > high + TORQUE_FLOOR and (stopped != FORWARD or held > high + beyond):
            way = FORWARD
        elif not way and held < low - TORQUE_FLOOR and (stopped != BACKWARD or held < low - beyond):
            way = BACKWARD
        held_at = f"the losses hold {low:.6g} to {high:.6g} N m at rest"
        if not way:
            # held is a difference of torques: shown to their resolution (a round-off residue of 1e-31 N m is 0)
            shown = held if abs(held) > 1e-12 * scale else 0.0
            if low <= held <= high:
                return y, f"stuck: it holds {shown:.6g} N m ({held_at})"
            towards_ = "forwards" if stopped == FORWARD else "backwards"
            return y, (f"stuck: it came to rest rolling {towards_} and holds {shown:.6g} N m (its losses' limits at "
                       f"rest, {low:.6g} to {high:.6g} N m, follow from the torque it passes on)")
        self._set(system, mode=way)
        system.rows_changed(t, y)
        return y, (f"starts {_towards(way)}: {held:.6g} N m to hold, {_limit(way, held, low, high, held_at)}, "
                   f"{self._choose_side(system, t, y)}")

    def _settle_set(self, system, t: float, y, group: list, way: int, force: bool, stopped: int,
                    turned: bool = False) -> tuple:
        """Settle the set of tied pairs `group` ((pair, c) with w_a = c w_a(self)) at rest: its first pair, the
        lead, holds the lock, its members stand with the losses of the way the set is pushed (`way`, else the
        sign of the set's torque), and the set starts that way where the lead's torque passes its own limit (or
        `force`: an event found it there; `turned`: the set's torque turned it). `way` and `stopped` are in this
        pair's sense."""
        order = system.elements.index
        lead, c0 = min(group, key=lambda member: order(member[0]))
        members = [(pair, c / c0) for pair, c in group if pair is not lead]
        sense = 1 if c0 > 0 else -1  # this pair's way is the lead's times sense
        way, stopped = way * sense, stopped * sense
        y = lead._anticipate(system, t, y, members, way or FORWARD)
        torque = lead._set_torque(system, t, y, members)
        if not way and torque < 0:
            way = BACKWARD
            y = lead._anticipate(system, t, y, members, way)
        way = way or FORWARD
        held, low, high, scale = lead._holding(system, t, y)
        limit = (high if way == FORWARD else low) + torque - held  # the lead's and the members' losses that way
        shown = torque if abs(torque) > 1e-12 * max(scale, abs(limit)) else 0.0  # round-off at rest shows as 0
        about = (f"the set {f'is pushed {_towards(way)} now and ' if turned else ''}has {shown:.6g} N m to hold at rest "
                 f"about {lead.name}'s gear 1")
        if not (force or (way * (held - (high if way == FORWARD else low)) > TORQUE_FLOOR and stopped != way)):
            return y, (f"stuck: {about}, within what its losses hold {_towards(way)} ({limit:.6g} N m)"
                       + _with(group, "are stuck with it"))
        lead._set(system, mode=way, way=0)
        for pair, _ in members:
            pair._set(system, lead=())
        system.rows_changed(t, y)
        sides = {pair: pair._choose_side(system, t, y) for pair, _ in group}
        rate = lead._w_a_rate(system, t, y)
        if rate * way * system.model.settings.step < -HELD_SPEED:  # each pair at its limit: it cannot slow
            raise ModesError(
                f"the lossy pairs {_names(group)} are tied by the gear rows and roll together: at t = {t:.9g} s "
                f"they reached the limit of what their losses hold {_towards(way)}, but the set rolling that way "
                f"would slow ({rate:.6g} rad/s^2 on {lead.name})", items=tuple(p.name for p, _ in group))
        return y, (f"starts {_towards(way * sense)}: {about}, "
                   f"{_limit(way, torque, limit, limit, f'its losses hold {_towards(way)} ({limit:.6g} N m)')}, "
                   f"{sides[self]}" + _with(group, "start with it"))

    def _anticipate(self, system, t: float, y, members: list, way: int):
        """Hold this pair's set at rest by its lock, its `members` ((pair, c), w_a = c w_a(self)) with the losses
        they have rolling `way` (this pair's sense) from its driving side then: the state with speeds made
        consistent."""
        self._set(system, mode=STUCK, held=False, way=way, lead=())
        for pair, c in members:
            pair._set(system, mode=way * (1 if c > 0 else -1), held=False, way=0, lead=(self, c))
        system.rows_changed(t, y)
        y = system.consistent_velocities(y, t)[0]
        for _ in range(len(members)):  # each side moves the torques the others see: until none changes
            before = [pair._drives(system) for pair, _ in members]
            for pair, _ in members:
                pair._choose_side(system, t, y)
            if [pair._drives(system) for pair, _ in members] == before:
                break
        return y

    def _set_torque(self, system, t: float, y, members: list) -> float:
        """The torque this lead's set has to hold at rest [N m] about its gear 1's axis: what it holds and its
        `members` ((pair, c)) hold, each times its tie (the same whatever each pair holds of it)."""
        values = system.sample(t, y)[0]
        return sum(c * pair._held(values) for pair, c in [(self, 1.0)] + members)

    def _held(self, values) -> float:
        """What it holds at rest, tau_a + tau_b / r [N m], from its channels' `values`."""
        at = self.modes_at + 4
        return float(values[at] + values[at + 1] / self.ratio)

    def _holding(self, system, t: float, y) -> tuple[float, float, float, float]:
        """What it holds at rest, tau_a + tau_b / r, the losses' limits there, and the torques' scale [N m]."""
        tau_a, tau_b, _ = self.torques_at(system, t, y)
        at_rest = self.table.at_rest
        low, high = at_rest.holding_range(tau_a) if self.rigid else at_rest.mesh_holding_range(-tau_b / self.ratio)
        scale = max(abs(tau_a), abs(tau_b / self.ratio), abs(low), abs(high))
        return tau_a + tau_b / self.ratio + 0.0, low + 0.0, high + 0.0, scale  # + 0.0: no '-0' in messages

    def ties(self, system, t: float, y) -> tuple[list, str | None]:
        """What ties this pair's w_a, from the locks' rows with every lock on: when the rows other than the locks fix
        it, ([(self, 1)], what imposes it: the speed motors among those rows, or the joints); else ([(pair, c)],
        None) with this pair first (c = 1) and each lossy pair whose w_a those rows tie to its own,
        w_a = c w_a(self)."""
        pairs = [e for e in system.elements if isinstance(e, type(self))]
        disc, saved = system.kernel.disc, system.kernel.disc.copy()
        for pair in pairs:
            disc[pair.disc0 + MODE], disc[pair.disc0 + HELD] = STUCK, 0
        system.kernel.forget()
        jac = system.jacobian(t, y)
        disc[:] = saved
        system.kernel.forget()
        lock = {pair: pair.row0 + pair.nrows - 1 for pair in pairs}
        rest = np.ones(len(jac), dtype=bool)
        rest[list(lock.values())] = False
        rest &= np.any(jac != 0.0, axis=1)
        mine = jac[lock[self]]
        coeff = _as_sum(jac[rest], mine)
        if coeff is not None:
            rows = np.flatnonzero(rest)[np.abs(coeff) > 1e-9 * np.abs(coeff).max()]
            motors = [e.name for e in system.elements if e.name in system.model.forces and e.nrows
                      and np.any((rows >= e.row0) & (rows < e.row0 + e.nrows))]
            return [(self, 1.0)], ", ".join(f"'{m}'" for m in motors) if motors else "the joints"
        group = [(self, 1.0)]
        for pair in (p for p in pairs if p is not self):
            coeff = _as_sum(np.vstack([jac[rest], mine]), jac[lock[pair]])
            if coeff is not None and abs(coeff[-1]) > 1e-9 * np.linalg.norm(jac[lock[pair]]) / np.linalg.norm(mine):
                group.append((pair, float(coeff[-1])))
        return group, None

    def _follow(self, system, t: float, y, imposed: str) -> tuple:
        """The pair's speed is imposed: it rolls the way it is imposed to move (its speed, else its acceleration
        over a step past HELD_SPEED), or is held at rest without its lock."""
        self._set(system, mode=STUCK, held=True, way=0, lead=())
        system.rows_changed(t, y)
        y = system.consistent_velocities(y, t)[0]
        w_a = self.torques_at(system, t, y)[2]
        rate = self._w_a_rate(system, t, y)
        if abs(w_a) > 1e3 * HELD_SPEED:  # a speed that stepped
            way, how = np.sign(w_a), f"at {w_a:.6g} rad/s"
        elif abs(rate) * system.model.settings.step > HELD_SPEED:
            way, how = np.sign(rate), f"at {rate:.6g} rad/s^2"
        else:  # leaving rest with no acceleration (1 - cos), or still at rest
            way, how = (np.sign(w_a) if abs(w_a) > HELD_SPEED else 0), "from rest"
        if not way:
            return y, (f"held at rest by {imposed}: its speed is imposed there, so it passes the torque without "
                       f"loss until that speed leaves rest")
        self._set(system, mode=int(way), held=False)
        system.rows_changed(t, y)
        towards = "forwards" if way > 0 else "backwards"
        return y, (f"starts {towards}: {imposed} moves it {towards} {how}, {self._choose_side(system, t, y)}")

    def _w_a_rate(self, system, t: float, y) -> float:
        """dw_a/dt [rad/s^2] at (t, y) in the modes as set, its lock off (the speed rows impose, or a tied set's
        rolling gives): a1 . (alpha_1 - alpha_c) + (w_1 x a1) . (w_1 - w_c)."""
        acc = system.accelerations(t, y)[:, 3:]
        _, rot, _, spin = system.bodies(y)
        ground = len(acc)
        alpha1, alphac = (acc[b] if b < ground else np.zeros(3) for b in (self.g1, self.carrier))
        w1, wc = (spin[b] if b < ground else np.zeros(3) for b in (self.g1, self.carrier))
        a1 = rot[self.g1] @ np.asarray(self.axes[0]) if self.g1 < ground else np.asarray(self.axes[0])
        return float(a1 @ (alpha1 - alphac) + np.cross(w1, a1) @ (w1 - wc))


def _as_sum(rows: np.ndarray, row: np.ndarray) -> np.ndarray | None:
    """The coefficients that make `row` a sum of `rows` (least squares), or None when it is not one."""
    coeff = np.linalg.lstsq(rows.T, row, rcond=None)[0]
    return coeff if np.linalg.norm(rows.T @ coeff - row) <= 1e-9 * np.linalg.norm(row) else None


def _with(group: list, how: str) -> str:
    """'; <the other pairs of the group> <how>' for a note ('' for a pair alone)."""
    return f"; {', '.join(pair.name for pair, _ in group[1:])} {how}" if len(group) > 1 else ""


def _names(group: list) -> str:
    """The names of the pairs of `group`."""
    return ", ".join(pair.name for pair, _ in group)


def _towards(way: int) -> str:
    return "forwards" if way == FORWARD else "backwards"


def _limit(way: int, held: float, low: float, high: float, held_at: str) -> str:
    """Where the torque `held` [N m] is against the limit of what the losses hold `way` (an event finds it at the
    limit, to the event's tolerance): 'above the top of what <held_at>'."""
    if way == FORWARD:
        return f"{'above' if held > high + 1e-9 * abs(high) else 'at'} the top of what {held_at}"
    return f"{'below' if held < low - 1e-9 * abs(low) else 'at'} the bottom of what {held_at}"
