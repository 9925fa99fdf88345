package io.xferbench.launch;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The Main-Class of the xferbench jars, compiled for Java 8 so that any JVM can load it: on a runtime older than
 * the suite needs it says so in one line (instead of an UnsupportedClassVersionError), otherwise it hands over to
 * the class named by the jar's {@code Xferbench-Main} manifest attribute.
 */
public final class Launch {
    static final int REQUIRED_FEATURE = 21;
    static final int TOO_OLD = 1;

    private Launch() {
    }

    public static void main(String[] args) throws Throwable {
        String spec = System.getProperty("java.specification.version", "0");
        int feature = feature(spec);
        if (feature < REQUIRED_FEATURE) {
            System.err.println("xferbench needs Java " + REQUIRED_FEATURE + " or newer; this is Java " + spec + " ("
                    + System.getProperty("java.home") + "). Run the jar with a newer JDK's java, or use scripts/server and "
                    + "scripts/client, which find one.");
            System.exit(TOO_OLD);
        }
        String main = mainClass();
        try {
            Class.forName(main).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** "1.8" is 8, "17" is 17, "21.0.1" is 21. */
    static int feature(String spec) {
        String s = spec.startsWith("1.") ? spec.substring(2) : spec;
        int dot = s.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? s : s.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String mainClass() throws IOException {
        URL jar = Launch.class.getProtectionDomain().getCodeSource().getLocation();
        JarFile file;
        try {
            // The location is a URL: its path has a space as %20, so it is decoded through the URI, not used as is.
            file = new JarFile(new File(jar.toURI()));
        } catch (URISyntaxException e) {
            throw new IOException("cannot read the jar at " + jar, e);
        }
        try {
            Manifest manifest = file.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue(new Attributes.Name("Xferbench-Main"));
            if (main == null) {
                throw new IllegalStateException(jar + " has no Xferbench-Main manifest attribute");
            }
            return main;
        } finally {
            file.close();
        }
    }
}
