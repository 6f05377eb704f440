package dev.petrel.server.cli;

/**
 * One value of an option as the user wrote it, and where: on the command line, as a key of the
 * {@code --config} file or as a {@code PETREL_*} variable. A message about the value begins with
 * {@link #where}, so that the user finds it where it was written.
 *
 * @param option the option
 * @param value the text of the value; {@code "true"} or {@code "false"} for a flag
 * @param where how the user wrote the option: {@code --port}, {@code --config petrel.properties: key 'port'},
 *        {@code environment variable PETREL_PORT}
 */
record Given(Option<?> option, String value, String where) {}
