"""Table options of Fantasy Realms (spec S2, decisions in §9), defaults first."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import N_


class RealmsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    two_player_variant: Literal["seed", "published", "none"] = Field(
        "seed",
        title=N_("Two-player variant"),
        description=N_("Two players only: which two-player rules to use (S1, T8-T16)."),
    )
    tie_break: Literal["highest_card", "lowest_base_total"] = Field(
        "highest_card", title=N_("Tie-break"), description=N_("How equal totals are separated (E20).")
    )
    tie_break_base_counts_blanked: bool = Field(
        True,
        title=N_("Tie-break counts blanked cards"),
        description=N_("With lowest_base_total: count blanked cards' printed strength too (E20)."),
    )
    collector_mode: Literal["sum_over_suits", "best_suit"] = Field(
        "sum_over_suits",
        title=N_("Collector"),
        description=N_("Collector scores every suit, or only its best one (C26)."),
    )
    gem_mode: Literal["every_run", "longest_run"] = Field(
        "every_run",
        title=N_("Gem of Order"),
        description=N_("Gem of Order scores every run, or only the longest (C47)."),
    )
    wildfire_spares_unused_wild: bool = Field(
        True,
        title=N_("Wildfire spares unused wild cards"),
        description=N_("Wildfire does not blank a wild card that copied nothing (C16)."),
    )
    unused_wild_suit: Literal["none", "wild"] = Field(
        "none",
        title=N_("Suit of an unused wild card"),
        description=N_("The suit of a wild card that copied nothing (C0.12)."),
    )
    blanking_resolution: Literal["layered", "reference_scorer"] = Field(
        "layered",
        title=N_("Blanking cycles"),
        description=N_("How mutual blanks and cycles are resolved (E16, E17)."),
    )
    book_may_target_wild: bool = Field(
        True,
        title=N_("Book of Changes may target a wild card"),
        description=N_("The Book of Changes may change a wild card's suit (C49)."),
    )
    may_discard_taken_card: bool = Field(
        True,
        title=N_("May discard the card just taken"),
        description=N_("A card taken from the discard area may be discarded the same turn (T4)."),
    )
    final_choices: Literal["players_choose", "automatic"] = Field(
        "players_choose",
        title=N_("End-of-game choices"),
        description=("Players confirm their end-of-game choices, or the best ones apply at once (E2, E10)."),
    )
    final_choice_deadline_minutes: int | None = Field(
        1440,
        gt=0,
        title=N_("Deadline for end-of-game choices (minutes)"),
        description=N_(
            "Minutes after which waiting players are confirmed with their pre-selection (E9); empty for none."
        ),
    )


SCORING_OPTION_KEYS = (
    "collector_mode",
    "gem_mode",
    "wildfire_spares_unused_wild",
    "unused_wild_suit",
    "blanking_resolution",
    "book_may_target_wild",
    "tie_break",
    "tie_break_base_counts_blanked",
)
