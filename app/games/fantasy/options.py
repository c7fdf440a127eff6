"""Table options of Fantasy (spec S1, decisions D1-D26), defaults first, and the per-seat
reaction preference (R9)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import N_


class F2Counts(BaseModel):
    """Copies of each Fantasy II card (reconstructed, §10.1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    homme: int = Field(
        8,
        ge=0,
        le=12,
        title=N_("Hommes"),
        description=N_("Copies of the Homme (a reconstructed count: set it to match your box)."),
    )
    ogre: int = Field(
        8,
        ge=0,
        le=12,
        title=N_("Ogres"),
        description=N_("Copies of the Ogre (a reconstructed count: set it to match your box)."),
    )
    garou: int = Field(
        8,
        ge=0,
        le=12,
        title=N_("Garous"),
        description=N_("Copies of the Garou (a reconstructed count: set it to match your box)."),
    )
    biere: int = Field(
        6,
        ge=0,
        le=12,
        title=N_("Bières"),
        description=N_("Copies of the Bière (a reconstructed count: set it to match your box)."),
    )


class FantasyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    expansion: bool = Field(
        False,
        title=N_("Fantasy II expansion"),
        description=N_("Add the Hommes, Ogres, Garous, Bières and Secrets of Fantasy II."),
    )
    f2_counts: F2Counts = Field(
        default_factory=F2Counts,
        title=N_("Fantasy II card counts"),
        description=N_(
            "Copies of each Fantasy II card (0-12). This card list is a reconstruction; "
            "edit the data to match your copy."
        ),
    )
    f2_secrets: bool = Field(
        True, title=N_("Secrets"), description=N_("Include the ten Secrets (one per race) with Fantasy II.")
    )
    farfadet_mode: Literal["auto", "forests", "places"] = Field(
        "auto",
        title=N_("Farfadet"),
        description=N_("Auto: the Farfadet swaps Forests without the expansion and places with it (C4, C5)."),
    )
    end_rule: Literal["auto", "final_round", "replenish"] = Field(
        "auto",
        title=N_("End of the game"),
        description=N_(
            "Auto: a final round without the expansion, replenishment from other hands with it (E3, E4)."
        ),
    )
    final_round_anchor: Literal["after_trigger", "complete_round"] = Field(
        "after_trigger",
        title=N_("Final round"),
        description=N_(
            "Every other place plays once more, or play goes on until the round started by the first "
            "player is complete (E3)."
        ),
    )
    korrigan_take: Literal["random", "victim_chooses", "actor_chooses"] = Field(
        "random",
        title=N_("Korrigan"),
        description=N_(
            "Which cards a Korrigan takes: at random, chosen by the victim, or by its player (C2)."
        ),
    )
    replenish_take: Literal["random", "giver_chooses"] = Field(
        "random",
        title=N_("Replenishment"),
        description=N_("Which card a player with an empty hand gets from each opponent (E4)."),
    )
    secret_placement: Literal["any", "absent_only"] = Field(
        "any",
        title=N_("Laying a Secret"),
        description=N_("A Secret may be laid at any time, or only while its race is absent (C13)."),
    )
    fee_reactors: Literal["any_other", "affected_only"] = Field(
        "any_other",
        title=N_("Who may play a Fée"),
        description=N_("Any other player, or only the players the power affects (R3)."),
    )
    elfe_copy_scope: Literal["own", "any"] = Field(
        "own",
        title=N_("Elfe"),
        description=N_("An Elfe copies a card of its own Forest, or of any Forest (C7)."),
    )
    hommes_block_own: bool = Field(
        False,
        title=N_("Own Hommes block own Farfadet"),
        description=N_("A player's own awake Hommes stop his own Farfadet (C0.2)."),
    )
    biere_followup: Literal["target_forest", "any"] = Field(
        "target_forest",
        title=N_("After Bières"),
        description=N_("The creature laid after Bières must act on the target's Forest, or may be any (T4)."),
    )
    must_play: bool = Field(
        True, title=N_("Must play"), description=N_("A player who can lay a card must do so (T3).")
    )
    tiebreak: Literal["fewest_cards", "shared"] = Field(
        "fewest_cards",
        title=N_("Tie-break"),
        description=N_("Fewest cards in hand wins a tie, or tied players share the victory (E7)."),
    )
    first_player: Literal["random", "place0"] = Field(
        "random",
        title=N_("First player"),
        description=N_("A random place starts, or place 0 (seat the youngest player there) (S5)."),
    )
    large_base: bool = Field(
        False,
        title=N_("5-6 players without the expansion"),
        description=N_("Allow 5 or 6 players with the base game alone (S2)."),
    )
    reaction_timeout_s: int | None = Field(
        None,
        ge=5,
        title=N_("Reaction deadline (seconds)"),
        description=N_(
            "Seconds after which players who have not answered a Fée window pass (R9); empty for none."
        ),
    )

    @property
    def farfadet(self) -> Literal["forests", "places"]:
        """C4/C5, D1: the Farfadet mode in force."""
        if self.farfadet_mode == "auto":
            return "places" if self.expansion else "forests"
        return self.farfadet_mode

    @property
    def ending(self) -> Literal["final_round", "replenish"]:
        """E1: the end rule in force."""
        if self.end_rule == "auto":
            return "replenish" if self.expansion else "final_round"
        return self.end_rule


class FantasyPrefs(BaseModel):
    """A player's private preference for reaction windows (R9). It may depend only on public facts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    react_pref: Literal["ask_when_affected", "ask_always", "never"] = Field(
        "ask_when_affected",
        title=N_("Fée windows"),
        description=N_(
            "Be asked only when a power affects you (others are passed for you at once), always, or never."
        ),
    )
