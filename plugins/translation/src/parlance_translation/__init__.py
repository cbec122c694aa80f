"""Parlance's translation pack: the four ADR 0005 tools on the translation contract v0.1.0.

The pack module is `parlance_translation.pack` (entry point `translation` in `parlance.packs`);
nothing here is imported by the host except through it. Modules, by role:

    contract     pydantic mirror of the v0.1.0 output contract      inputs     arguments and error mapping
    schemas      outputSchema and the model's reply schema          errors     error codes
    templates    prompt templates and lexicons (language seam)      prompting  one call's rendered prompt
    replies      parse, cap, validate and anchor-check any draft    provenance model_provenance
    tools        the handlers: model_output / sampling / baseline   heuristics baseline mode
    evaluation   the eval corpus runner (`parlance eval translation`)
"""

__version__ = "0.1.0"
