package dev.petrel.server.cli;

/** A command line that cannot be obeyed; its message is printed as one line, with a hint to the help. */
final class UsageException extends Exception {
    UsageException(String message) {
        super(message, null, false, false);
    }
}
