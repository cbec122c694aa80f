"""Android string resources: aapt2's text rules (`aapt_text`), the entries of a values file
(`entries`), in-place edits (`document`) and the format (`format.AndroidFormat`)."""
