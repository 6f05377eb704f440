package dev.petrel.bench.lab;

/** A lab run that cannot go on; its message is one line for the user. */
final class LabException extends Exception {
    LabException(String message) {
        super(message, null, false, false);
    }
}
