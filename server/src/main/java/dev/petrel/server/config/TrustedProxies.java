package dev.petrel.server.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses a proxy in front of the server may connect from: only these may send a PROXY
 * protocol header, and only their {@code Forwarded} and {@code X-Forwarded-*} headers change what
 * a request says of its client. Given as CIDR blocks ({@code 10.0.0.0/8}, {@code 2001:db8::/32})
 * or single addresses. Empty trusts no one.
 *
 * <p>A connector is given its proxies as text ({@link Connector#trustedProxies(String...)}), parsed
 * with {@link #of(List)}, which refuses anything that is not an address or a CIDR block; this is
 * that parsed form, for code that checks such a list up front (a command line, a configuration
 * file) or asks whether an address is trusted. Immutable, and safe to share between threads.
 */
public final class TrustedProxies {
    /** Trusts no one. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private record Block(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) return false;
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) return false;
            }
            int rest = prefix % 8;
            if (rest == 0) return true;
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Block> blocks;
    private final List<String> given;

    private TrustedProxies(List<String> cidrs) {
        List<Block> parsed = new ArrayList<>();
        for (String cidr : cidrs) parsed.add(parse(cidr));
        this.blocks = List.copyOf(parsed);
        this.given = List.copyOf(cidrs);
    }

    /**
     * The proxies in {@code cidrs}, each an IP literal with or without a prefix length.
     *
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    public static TrustedProxies of(List<String> cidrs) {
        return cidrs.isEmpty() ? NONE : new TrustedProxies(cidrs);
    }

    /** Whether no proxy is trusted. */
    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** Whether {@code address} is one of the trusted proxies. An IPv4-mapped IPv6 address counts as its IPv4 address. */
    public boolean trusts(InetAddress address) {
        if (address == null || blocks.isEmpty()) return false;
        byte[] bytes = address.getAddress();
        if (bytes.length == 16 && isV4Mapped(bytes)) bytes = java.util.Arrays.copyOfRange(bytes, 12, 16);
        for (Block block : blocks) {
            if (block.contains(bytes)) return true;
        }
        return false;
    }

    private static boolean isV4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) return false;
        }
        return bytes[10] == (byte) 0xFF && bytes[11] == (byte) 0xFF;
    }

    private static Block parse(String cidr) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String host = slash < 0 ? text : text.substring(0, slash);
        byte[] network;
        try {
            network = InetAddress.ofLiteral(host).getAddress();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an IP address or CIDR block: '" + cidr + "'");
        }
        int max = network.length * 8;
        int prefix = max;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) throw new IllegalArgumentException("not a prefix length from 0 to " + max + ": '" + cidr + "'");
        }
        return new Block(network, prefix);
    }

    /** The entries as given, joined by {@code ", "}; {@code none} when empty. */
    @Override
    public String toString() {
        return given.isEmpty() ? "none" : String.join(", ", given);
    }
}
