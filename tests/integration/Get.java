// Fetches a URL with the JDK's own client and prints the body: what a Java
// test suite does to call a server it started. Proxy settings are the
// JVM's defaults plus whatever the environment gives it.
import java.net.URL;

public class Get {
	public static void main(String[] args) throws Exception {
		System.out.print(new String(new URL(args[0]).openStream()
		    .readAllBytes(), "UTF-8"));
	}
}
