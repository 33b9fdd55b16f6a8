"""Reasoning backends: ``rules`` (offline default) and ``openai`` (any compatible endpoint)."""

from .base import Correction, Reasoner
from .rules import RulesReasoner

__all__ = ["Reasoner", "RulesReasoner", "Correction", "build_reasoner"]


def build_reasoner(settings, client=None, review: bool = False) -> Reasoner:
    """The backend the settings pick: openai when an endpoint is configured, else rules."""
    if settings.resolved_backend == "openai":
        from .openai_llm import OpenAIReasoner, make_client

        model = (settings.review_model or settings.llm_model) if review else settings.llm_model
        return OpenAIReasoner(client or make_client(settings), model)
    return RulesReasoner()
