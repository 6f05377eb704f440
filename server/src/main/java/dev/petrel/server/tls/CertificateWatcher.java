package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfigException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reloads a {@link ReloadableTlsContext} when one of its certificate or key files changes, so a
 * renewed certificate (certbot, cert-manager) is served without a restart.
 *
 * <p>It watches the files' directories, not the files: renewal tools replace files by renaming
 * new ones over them, which a watch on the old file would miss. Events for other names are
 * ignored, except names starting with {@code ..}: Kubernetes swaps a mounted secret by
 * re-pointing a {@code ..data} link, and the visible file names never change. Events are
 * debounced: the reload happens once no event has come for the debounce time (1 s by default),
 * so a certificate and key written one after the other are read together.
 *
 * <p>A failed reload keeps the previous certificate and is logged as one warning line; it is
 * tried again on the next change. One daemon thread per watcher; {@link #close()} stops it.
 */
public final class CertificateWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    /** The default quiet time before reloading. */
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofSeconds(1);

    /** Told of every reload the watcher makes, after it is logged. */
    public interface Listener {
        /**
         * A reload succeeded.
         *
         * @param context the new current context
         */
        default void reloaded(TlsContext context) {}

        /**
         * A reload failed; the previous context stays current.
         *
         * @param error the one-line reason
         */
        default void failed(TlsConfigException error) {}
    }

    private final ReloadableTlsContext context;
    private final Duration debounce;
    private final Listener listener;
    private final WatchService service;
    /** Names watched per directory. */
    private final Map<Path, Set<Path>> watched = new HashMap<>();
    private final Thread thread;

    private CertificateWatcher(ReloadableTlsContext context, Duration debounce, Listener listener) throws IOException {
        this.context = context;
        this.debounce = debounce;
        this.listener = listener;
        this.service = FileSystems.getDefault().newWatchService();
        try {
            for (Path file : context.config().files()) {
                Path absolute = file.toAbsolutePath().normalize();
                Path directory = absolute.getParent();
                if (!watched.containsKey(directory)) {
                    directory.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                            StandardWatchEventKinds.ENTRY_DELETE);
                    watched.put(directory, new HashSet<>());
                }
                watched.get(directory).add(absolute.getFileName());
            }
        } catch (IOException | RuntimeException e) {
            service.close();
            throw e;
        }
        this.thread = Thread.ofPlatform().name("petrel-tls-watcher").daemon(true).start(this::run);
    }

    /**
     * Starts watching with the default debounce, logging each reload.
     *
     * @throws IOException when a directory cannot be watched
     */
    public static CertificateWatcher start(ReloadableTlsContext context) throws IOException {
        return start(context, DEFAULT_DEBOUNCE, new Listener() {});
    }

    /**
     * Starts watching.
     *
     * @param debounce quiet time after the last change before reloading
     * @param listener told of each reload, after it is logged
     * @throws IOException when a directory cannot be watched
     */
    public static CertificateWatcher start(ReloadableTlsContext context, Duration debounce, Listener listener)
            throws IOException {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(debounce, "debounce");
        Objects.requireNonNull(listener, "listener");
        return new CertificateWatcher(context, debounce, listener);
    }

    private void run() {
        try {
            while (true) {
                if (!relevant(service.take())) continue;
                // wait until the files have been quiet for the debounce time
                WatchKey next;
                while ((next = service.poll(debounce.toMillis(), TimeUnit.MILLISECONDS)) != null) relevant(next);
                reload();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    /** Drains the key's events; true when one concerns a watched file. */
    private boolean relevant(WatchKey key) {
        boolean relevant = false;
        Set<Path> names = watched.getOrDefault((Path) key.watchable(), Set.of());
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                relevant = true; // events were lost; one may have been ours
            } else if (event.context() instanceof Path name && (names.contains(name) || name.toString().startsWith(".."))) {
                relevant = true;
            }
        }
        key.reset();
        return relevant;
    }

    private void reload() {
        try {
            TlsContext reloaded = context.reload();
            LOG.log(System.Logger.Level.INFO, () -> "TLS certificates reloaded: " + reloaded.certificates());
            listener.reloaded(reloaded);
        } catch (TlsConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "TLS reload failed, keeping the previous certificates: " + e.getMessage());
            listener.failed(e);
        } catch (RuntimeException e) {
            // the watcher must outlive a listener that throws
            LOG.log(System.Logger.Level.WARNING, "TLS reload listener failed", e);
        }
    }

    /** Stops watching; waits briefly for the thread to end. */
    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing the TLS watch service", e);
        }
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
