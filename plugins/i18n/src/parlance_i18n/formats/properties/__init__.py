"""Java `.properties`: `java.text.MessageFormat` (`java_messageformat`) and the format
(`format.PropertiesFormat`)."""
