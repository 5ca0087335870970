package dev.redrive.config;

/** A configuration value that cannot work; the message names the setting and what is wrong with it. */
public class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}
