"""Adaptive document retrieval (EWEK-QA §3.1.1): verbatim quotes from local files or the web."""

from kgcite.retrieve.documents.addresses import AddressPolicy
from kgcite.retrieve.documents.extract import LLMSpanExtractor, WindowExtractor, align_span
from kgcite.retrieve.documents.model import Document, DocumentRetrieval, Passage, Quote
from kgcite.retrieve.documents.rank import TwoStageRanker, deduplicate
from kgcite.retrieve.documents.retriever import DocumentRetriever
from kgcite.retrieve.documents.sources import (
    DocumentCache,
    RobotsRules,
    SearchBackend,
    SearchHit,
    SearxngSearch,
    fetch_documents,
)
from kgcite.retrieve.documents.split import ParagraphSplitter

__all__ = [
    "AddressPolicy",
    "Document",
    "DocumentCache",
    "DocumentRetrieval",
    "DocumentRetriever",
    "LLMSpanExtractor",
    "ParagraphSplitter",
    "Passage",
    "Quote",
    "RobotsRules",
    "SearchBackend",
    "SearchHit",
    "SearxngSearch",
    "TwoStageRanker",
    "WindowExtractor",
    "align_span",
    "deduplicate",
    "fetch_documents",
]
