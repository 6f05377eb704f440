package dev.petrel.server.demo;

import dev.petrel.server.FormPart;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.observe.JsonStrings;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The demo's {@code POST /upload}: reads a {@code multipart/form-data} body (the form of
 * {@code /upload.html}, or {@code curl -F}) and answers each part's name, file name, size and
 * SHA-256, as JSON for a client that accepts it and as text lines otherwise. Nothing is kept: the
 * parts that went to temporary files are removed when the exchange ends.
 */
final class UploadSummary implements Handler {
    @Override
    public void handle(Request request, Response response) throws Exception {
        List<FormPart> parts = request.multipart().parts();
        String accept = request.header("Accept");
        if (accept != null && accept.contains("application/json")) {
            StringBuilder json = new StringBuilder("{\"parts\":[");
            for (int i = 0; i < parts.size(); i++) {
                FormPart part = parts.get(i);
                json.append(i == 0 ? "" : ",").append("{\"name\":");
                JsonStrings.append(json, part.name()).append(",\"filename\":");
                JsonStrings.append(json, part.filename()).append(",\"size\":").append(part.size()).append(",\"sha256\":\"")
                        .append(sha256(part)).append("\"}");
            }
            response.contentType("application/json").send(json.append("]}\n").toString());
            return;
        }
        StringBuilder text = new StringBuilder();
        for (FormPart part : parts) {
            text.append(part.name()).append(part.isFile() ? " (" + part.filename() + ")" : "").append(": ").append(part.size())
                    .append(" bytes, sha256 ").append(sha256(part)).append('\n');
        }
        response.contentType("text/plain;charset=UTF-8").send(text.toString());
    }

    private static String sha256(FormPart part) throws IOException {
        try (InputStream in = part.inputStream()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] chunk = new byte[16 * 1024];
            int n;
            while ((n = in.read(chunk)) > 0) digest.update(chunk, 0, n);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
