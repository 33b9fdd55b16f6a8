"""Prompts: one function per task returning chat messages, with the reply schema beside it.

Untrusted text (messages, tool output, memory) is passed as JSON data inside the
user message, never spliced into the instructions, so it cannot change the
output schema. Replies are validated with the pydantic model in the same file.
"""

from .filter import FILTER_PROMPT_VERSION, FilterScores, filter_messages
from .relations import RELATION_PROMPT_VERSION, RelationReply, relation_messages
from .summarize import SUMMARY_PROMPT_VERSION, ToolSummary, tool_summary_messages

__all__ = [
    "FILTER_PROMPT_VERSION",
    "FilterScores",
    "filter_messages",
    "RELATION_PROMPT_VERSION",
    "RelationReply",
    "relation_messages",
    "SUMMARY_PROMPT_VERSION",
    "ToolSummary",
    "tool_summary_messages",
]
