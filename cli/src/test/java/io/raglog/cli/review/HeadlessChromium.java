package io.raglog.cli.review;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's Chromium, headless, through the system's chromedriver (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code scripts/install-test-packages.sh}). Both paths are given to Selenium, so Selenium
 * Manager never runs and nothing is downloaded.
 */
final class HeadlessChromium {

    static final Path BROWSER = Path.of(System.getProperty("raglog.test.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("raglog.test.chromedriver", "/usr/bin/chromedriver"));

    private HeadlessChromium() {}

    static ChromeDriver start() {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            install(); // like the broker and the Elasticsearch node, the test brings what it talks to
        }
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("the browser test needs Chromium at " + BROWSER + " and chromedriver at "
                    + DRIVER + ": install Debian's chromium and chromium-driver (scripts/install-test-packages.sh)");
        }
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, DRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString()))
                .usingAnyFreePort()
                // the page shows times in UTC; the browser's own zone only matters for the time filter's inputs
                .withEnvironment(Map.of("TZ", "UTC"))
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(BROWSER.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=1440,1000", "--no-first-run", "--disable-extensions",
                        "--disable-background-networking", "--disable-sync", "--metrics-recording-only",
                        "--disable-default-apps", "--lang=en-US");
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    /**
     * Runs the project's {@code scripts/install-test-packages.sh} (Debian's packages, as root or with sudo) when the
     * system paths are the ones asked for; its output goes to the test's log.
     */
    private static void install() {
        Path script = Path.of("..", "scripts", "install-test-packages.sh").toAbsolutePath().normalize();
        if (!Files.isExecutable(script) || !BROWSER.startsWith("/usr/bin") || !DRIVER.startsWith("/usr/bin")) {
            return;
        }
        try {
            Process p = new ProcessBuilder(script.toString()).inheritIO().start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
