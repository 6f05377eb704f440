package dev.petrel.server.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * The DNS names a certificate covers, and whether one covers a requested server name, by the
 * rules clients check them with (RFC 6125 §6.4): case-insensitive, and a wildcard only as the
 * whole left-most label, matching exactly one label ({@code *.example.com} covers
 * {@code www.example.com}, not {@code example.com} nor {@code a.b.example.com}).
 */
public final class HostNames {
    /** GeneralName tag of dNSName in a SubjectAltName (RFC 5280 §4.2.1.6). */
    private static final int DNS_NAME = 2;

    private HostNames() {}

    /**
     * The certificate's DNS SubjectAltNames, lower case; when it has none, its subject CN, as
     * certificates made before SANs were required still carry their name there.
     */
    public static List<String> dnsNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            var altNames = certificate.getSubjectAlternativeNames();
            if (altNames != null) {
                for (List<?> altName : altNames) {
                    if (altName.size() >= 2 && altName.get(0) instanceof Integer type && type == DNS_NAME
                            && altName.get(1) instanceof String name) {
                        names.add(normalize(name));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // an unreadable SAN extension leaves the certificate usable as the default one
        }
        if (names.isEmpty()) {
            String cn = commonName(certificate);
            if (cn != null) names.add(normalize(cn));
        }
        return List.copyOf(names);
    }

    /** True when {@code pattern}, a certificate name, covers {@code host}, a requested name. */
    public static boolean matches(String pattern, String host) {
        if (!pattern.startsWith("*.")) return pattern.equals(host);
        String suffix = pattern.substring(1); // ".example.com"
        int firstDot = host.indexOf('.');
        return firstDot > 0 && host.substring(firstDot).equals(suffix);
    }

    /** Lower case, without the trailing dot of a fully qualified name. */
    public static String normalize(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    private static String commonName(X509Certificate certificate) {
        try {
            LdapName subject = new LdapName(certificate.getSubjectX500Principal().getName());
            for (Rdn rdn : subject.getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN") && rdn.getValue() instanceof String cn) return cn;
            }
        } catch (InvalidNameException e) {
            // no usable CN
        }
        return null;
    }
}
