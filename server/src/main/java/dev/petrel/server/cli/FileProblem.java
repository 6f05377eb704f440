package dev.petrel.server.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Why a file could not be opened, in the words of a command line. The JDK's exceptions name only
 * the file ({@code NoSuchFileException: /var/log/petrel/a.log}) and leave the reason to the type.
 */
final class FileProblem {
    private FileProblem() {}

    /** The reason {@code e} says or implies, e.g. "the folder /var/log/petrel does not exist". */
    static String reason(FileSystemException e) {
        Path file = e.getFile() == null ? null : Path.of(e.getFile());
        if (e instanceof NoSuchFileException && file != null) {
            Path folder = file.toAbsolutePath().getParent();
            return folder != null && !Files.isDirectory(folder) ? "the folder " + folder + " does not exist" : "it does not exist";
        }
        if (e instanceof AccessDeniedException) return "permission denied";
        if (file != null && Files.isDirectory(file)) return "it is a folder";
        return e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
    }
}
