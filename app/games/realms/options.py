"""Table options of Fantasy Realms (spec S2, decisions in §9), defaults first."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class RealmsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    two_player_variant: Literal["seed", "published", "none"] = Field(
        "seed", description="Two players only: which two-player rules to use (S1, T8-T16)."
    )
    tie_break: Literal["highest_card", "lowest_base_total"] = Field(
        "highest_card", description="How equal totals are separated (E20)."
    )
    tie_break_base_counts_blanked: bool = Field(
        True, description="With lowest_base_total: count blanked cards' printed strength too (E20)."
    )
    collector_mode: Literal["sum_over_suits", "best_suit"] = Field(
        "sum_over_suits", description="Collector scores every suit, or only its best one (C26)."
    )
    gem_mode: Literal["every_run", "longest_run"] = Field(
        "every_run", description="Gem of Order scores every run, or only the longest (C47)."
    )
    wildfire_spares_unused_wild: bool = Field(
        True, description="Wildfire does not blank a wild card that copied nothing (C16)."
    )
    unused_wild_suit: Literal["none", "wild"] = Field(
        "none", description="The suit of a wild card that copied nothing (C0.12)."
    )
    blanking_resolution: Literal["layered", "reference_scorer"] = Field(
        "layered", description="How mutual blanks and cycles are resolved (E16, E17)."
    )
    book_may_target_wild: bool = Field(
        True, description="The Book of Changes may change a wild card's suit (C49)."
    )
    may_discard_taken_card: bool = Field(
        True, description="A card taken from the discard area may be discarded the same turn (T4)."
    )
    final_choices: Literal["players_choose", "automatic"] = Field(
        "players_choose",
        description=("Players confirm their end-of-game choices, or the best ones apply at once (E2, E10)."),
    )
    final_choice_deadline_minutes: int | None = Field(
        1440,
        gt=0,
        description=(
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
