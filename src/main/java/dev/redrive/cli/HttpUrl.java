package dev.redrive.cli;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.UrlCredentials;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.net.URI;

/** An http:// or https:// URL, the only kind a tool or its look-up answers at; anything else is named in one line. */
final class HttpUrl {
    private HttpUrl() {
    }

    /** @throws ConfigurationException naming {@code where} when {@code text} is missing or not an http(s) URL */
    static URI parse(String text, String where) {
        if (text == null || text.isBlank()) {
            throw new ConfigurationException(where + " is missing; expected an http:// or https:// URL");
        }
        try {
            URI uri = URI.create(text);
            // The authority, not the host: a host name with an underscore (a compose service) has no getHost().
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getRawAuthority() != null) {
                return uri;
            }
        } catch (IllegalArgumentException notAUri) {
            // Said below, as every other text that is not an http(s) URL.
        }
        throw new ConfigurationException(where + " must be an http:// or https:// URL, got " + UrlCredentials.mask(text));
    }

    /** For an option: picocli's line names the option, this one what was expected. */
    static final class Converter implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            try {
                return parse(value, "the value");
            } catch (ConfigurationException e) {
                throw new TypeConversionException("expected an http:// or https:// URL, got '" + UrlCredentials.mask(value)
                        + "'");
            }
        }
    }
}
