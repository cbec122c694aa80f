"""Android string resources: aapt2's text rules (`aapt_text`) and the format (`format.AndroidFormat`)."""
