/**
 * The {@code petrel} command line ({@link dev.petrel.server.cli.Main}), with no library beyond the
 * JDK.
 *
 * <p>{@code petrel serve}'s options are declared once, in
 * {@link dev.petrel.server.cli.ServeOptionTable}: each {@link dev.petrel.server.cli.Option} has a
 * name, a type ({@link dev.petrel.server.cli.OptionValue}: a flag, text, a whole number, seconds, a
 * size, a path, one of a few names...), a default, a line of help, a group of the help, and how
 * its value lands in {@link dev.petrel.server.cli.ServeSettings}. From the table alone:
 *
 * <ul>
 *   <li>{@link dev.petrel.server.cli.CommandLine} reads {@code --name value}, {@code --name=value}
 *       and flags;</li>
 *   <li>{@link dev.petrel.server.cli.ConfigFile} reads {@code --config FILE} (key {@code name},
 *       {@code name.N} for a repeated one) and {@link dev.petrel.server.cli.EnvironmentVariables}
 *       reads {@code PETREL_NAME}, each value straight from where it was written;</li>
 *   <li>{@link dev.petrel.server.cli.ServeHelp} writes {@code --help}, which is also the synopsis
 *       in {@code docs/command-line.md}.</li>
 * </ul>
 *
 * <p>{@link dev.petrel.server.cli.ConfigSources} merges the three places (command line over
 * environment over file, an option from a stronger place replacing all its values from weaker
 * ones), lands each value in the settings, and {@link dev.petrel.server.cli.ServeSettings#build()}
 * checks what the options say together and makes the {@link dev.petrel.server.cli.ServeOptions}.
 * Every value carries where it was written ({@link dev.petrel.server.cli.Given},
 * {@link dev.petrel.server.cli.Places}), so that a message about it begins with the option, the
 * config key or the environment variable the user wrote.
 *
 * <p>Where to listen: any number of {@code --listen URL}s ({@code http://}, {@code https://},
 * {@code ajp://}; {@link dev.petrel.server.cli.ListenUrl}), or, without one, the shorthands
 * {@code --host}, {@code --port}, {@code --https-port}, {@code --ajp-host} and {@code --ajp-port}
 * as before. Each listener becomes a {@link dev.petrel.server.config.Connector} of the one
 * {@link dev.petrel.server.Server}; the TLS, AJP and proxy settings apply to every listener of
 * their scheme.
 */
package dev.petrel.server.cli;
