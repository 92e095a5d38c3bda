"""The observation encoder (issues 13 and 32): a player's view written field by field into a
vector of :func:`~ttr_rules.rl.observation_layout`'s shape, from scratch on every call.

It reads nothing but what :func:`~ttr_rules.observe` shows the viewer, so it never holds
hidden information (rule E79). An incremental encoder, which brought every seat's last vector
up to date from the fields that changed, measured 0.9% of a MaskablePPO run's wall time
against 2.2% for writing from scratch (``benchmarks/rl_ppo_encoder_share.py``): too little for
a second copy of the rules, so this plain one replaced it (issue 32).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from ttr_rules import Color, GameState, PendingTunnel, Phase, PlayerView, observe
from ttr_rules.cards import count_colors
from ttr_rules.maps.index import map_index
from ttr_rules.scoring.tickets import ticket_connected
from ttr_rules.scoring.unionfind import component_labels

from .layout import layout_of

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["encode_observation", "encode_state_observation"]

Fields = dict[str, "NDArray[np.float32]"]

_PHASES: Final = tuple(Phase)
_LOCOMOTIVE: Final = Color.LOCOMOTIVE.code


def encode_observation(view: PlayerView) -> NDArray[np.float32]:
    """``view`` as a float32 vector of :func:`~ttr_rules.rl.observation_layout`'s shape,
    seats rotated so that the viewer comes first. Raises :class:`ValueError` for a
    spectator's view.

    >>> from ttr_rules import new_game, observe
    >>> from ttr_rules.rl import observation_layout
    >>> state = new_game("europe", players=3, seed=2)
    >>> obs = encode_observation(observe(state, 1))
    >>> obs.dtype, obs.shape == observation_layout(state.map, 3).shape
    (dtype('float32'), True)
    >>> layout = observation_layout(state.map, 3)
    >>> bool((obs[layout["hand"]] == state.players[1].hand.counts).all())
    True
    """
    if view.player is None:
        raise ValueError("encode_observation needs a player's view, not a spectator's")
    layout = layout_of(view.map, len(view.seats), view.rules)
    vector = np.zeros(layout.size, dtype=np.float32)
    fields = layout.unpack(vector)  # views into ``vector``: writing one writes the vector
    _write_seats(fields, view, view.player)
    _write_counters(fields, view)
    _write_cards(fields, view)
    if view.tunnel is not None:
        _write_tunnel(fields, view, view.tunnel)
    if view.payment is not None:  # (only boards with substitute sets have the fields)
        fields["payment_cards"][:] = count_colors(view.payment.cards)
        fields["payment_route"][view.payment.route] = 1
    _write_route_owners(fields, view, view.player)
    _write_tickets(fields, view, view.player)
    return vector


def encode_state_observation(state: GameState, player: int) -> NDArray[np.float32]:
    """``encode_observation(observe(state, player))``: what the environments call. Raises
    :class:`ValueError` unless ``player`` is a seat of the game.

    >>> from ttr_rules import new_game, observe
    >>> state = new_game("europe", players=2, seed=5)
    >>> bool((encode_state_observation(state, 1) == encode_observation(observe(state, 1))).all())
    True
    """
    return encode_observation(observe(state, player))


def _write_seats(fields: Fields, view: PlayerView, viewer: int) -> None:
    """``hand``, ``seats`` and ``stations``, seats in turn order from the viewer."""
    players = len(view.seats)
    own = view.seats[viewer]
    if own.hand is not None:
        fields["hand"][:] = own.hand.counts
    city_index = map_index(view.map).city_index
    stations = view.rules.stations_per_player
    for rel in range(players):
        seat = view.seats[(viewer + rel) % players]
        fields["seats"][rel] = (
            seat.hand_size,
            seat.trains,
            stations - len(seat.stations),
            seat.route_points,
            seat.ticket_count,
            seat.offered_count,
        )
        for city in seat.stations:
            fields["stations"][city_index[city], rel] = 1


def _write_counters(fields: Fields, view: PlayerView) -> None:
    """``piles``, the turn counters, and the one-hot ``current_seat`` (relative to the viewer;
    nobody once the game is over) and ``phase``."""
    fields["piles"][:] = (
        view.deck_size,
        view.ticket_deck_size,
        view.ticket_box_size,
        view.out_of_play_size,
    )
    if view.final_turns is not None:
        fields["final_round"][0] = 1
        fields["final_turns"][0] = view.final_turns
    fields["passes"][0] = view.passes
    fields["turn"][0] = view.turn
    if view.phase is not Phase.GAME_OVER:
        assert view.player is not None
        fields["current_seat"][(view.current - view.player) % len(view.seats)] = 1
    fields["phase"][_PHASES.index(view.phase)] = 1


def _write_cards(fields: Fields, view: PlayerView) -> None:
    """``discard`` by kind and ``face_up``, one-hot per slot (an empty slot all 0)."""
    fields["discard"][:] = count_colors(view.discard)
    face_up = fields["face_up"]
    for slot, card in enumerate(view.face_up):
        if card is not None:
            face_up[slot, card.code] = 1


def _write_tunnel(fields: Fields, view: PlayerView, tunnel: PendingTunnel) -> None:
    """The pending tunnel: its base payment, revealed cards, cards owed and route."""
    length = view.map.routes[tunnel.route].length
    payment = fields["tunnel_payment"]
    if tunnel.color.code == _LOCOMOTIVE:
        payment[_LOCOMOTIVE] = length
    else:
        payment[tunnel.color.code] = length - tunnel.locomotives
        payment[_LOCOMOTIVE] = tunnel.locomotives
    fields["tunnel_revealed"][:] = count_colors(tunnel.revealed)
    fields["tunnel_owed"][0] = tunnel.owed
    fields["tunnel_route"][tunnel.route] = 1


def _write_route_owners(fields: Fields, view: PlayerView, viewer: int) -> None:
    """``route_owner``: per route, one-hot its owner's seat relative to the viewer."""
    players = len(view.seats)
    field = fields["route_owner"]
    for route, owner in enumerate(view.route_owner):
        if owner is not None:
            field[route, (owner - viewer) % players] = 1


def _write_tickets(fields: Fields, view: PlayerView, viewer: int) -> None:
    """``tickets_kept``, ``tickets_completed`` (the viewer's own routes join the two cities;
    stations count only at scoring, E55) and ``offered``, one-hot per offer position."""
    own = view.seats[viewer]
    for position, ticket in enumerate(own.offered or ()):
        fields["offered"][position, ticket] = 1
    if not own.tickets:
        return
    index = map_index(view.map)
    mine = [index.route_ends[r] for r, owner in enumerate(view.route_owner) if owner == viewer]
    label = component_labels(len(index.city_index), mine)
    for ticket in own.tickets:
        fields["tickets_kept"][ticket] = 1
        if ticket_connected(index, ticket, label):  # one destination of several is enough
            fields["tickets_completed"][ticket] = 1
