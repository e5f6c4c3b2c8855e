package io.raglog.llm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.time.Clock;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Signs the judge's requests to Bedrock with AWS Signature Version 4 (signing name {@code bedrock}), the body's hash
 * included, as the AWS SDK's own Bedrock client does: the signing is the SDK's ({@link AwsV4HttpSigner}), with the
 * credentials {@link HeldAwsCredentials} holds, and goes out in headers of each request's own.
 *
 * <p>Why this is not the proxy's {@code AwsSigning}: the proxy re-signs requests it forwards, for any route, drops the
 * signature the client made, keeps the forwarded headers' order and case, and asks the credentials provider for every
 * request, so it signs on a pool of its own. The judge signs the one request it writes, to one endpoint, with
 * credentials it already holds, so it signs on the thread that sends, without a hop. What the two share is a call of
 * the SDK's signer with the same properties: too little for a module both could use ({@code udfs} may not depend on the
 * proxy, and {@code schemas} stays free of AWS).
 */
final class BedrockSigning implements AutoCloseable {

    static final String SIGNING_NAME = "bedrock";

    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    /** The POST without its body or signature: what every request signs besides them. */
    private final SdkHttpRequest unsigned;
    private final String region;
    private final HeldAwsCredentials credentials;

    private BedrockSigning(SdkHttpRequest unsigned, String region, HeldAwsCredentials credentials) {
        this.unsigned = unsigned;
        this.region = region;
        this.credentials = credentials;
    }

    /**
     * Signs requests to {@code url} with {@code credentials}, or with the AWS SDK's default chain when null (then
     * closed with this). The region and the credentials are resolved here, at start.
     *
     * @throws IllegalStateException when there are no credentials
     * @throws IllegalArgumentException when no region is known, or two settings disagree on it
     */
    static BedrockSigning start(LlmSettings settings, String url, AwsCredentialsProvider credentials) {
        // The URL keeps the model id escaped as it is sent; the signer escapes the path once more for the canonical
        // request, as AWS does on its side for every service but S3. Parsed first: a URL it refuses starts nothing.
        SdkHttpRequest unsigned = SdkHttpRequest.builder().uri(URI.create(url)).method(SdkHttpMethod.POST)
                .putHeader("content-type", ChatEndpoint.CONTENT_TYPE).build();
        String region = BedrockRegion.toSignFor(settings);
        HeldAwsCredentials held = credentials == null
                ? HeldAwsCredentials.resolve(DefaultCredentialsProvider.builder().build(), true, Clock.systemUTC())
                : HeldAwsCredentials.resolve(credentials, false, Clock.systemUTC());
        return new BedrockSigning(unsigned, region, held);
    }

    /**
     * The headers that sign this body: Host, X-Amz-Date, X-Amz-Content-Sha256, X-Amz-Security-Token for temporary
     * credentials, and Authorization. Reads the held credentials and hashes the body: nothing that waits.
     */
    HttpHeaders sign(ByteBuf body) {
        SignedRequest signed = signer.sign(r -> r.identity(credentials.current())
                .request(unsigned)
                .payload(() -> new ByteBufInputStream(body.duplicate()))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SIGNING_NAME)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true));
        HttpHeaders added = new DefaultHttpHeaders();
        signed.request().forEachHeader((name, values) -> {
            if (unsigned.firstMatchingHeader(name).isEmpty()) {
                values.forEach(value -> added.add(name, value));
            }
        });
        return added;
    }

    /** The text with the held credentials' secrets masked. */
    String redact(String text) {
        return credentials.redact(text);
    }

    @Override
    public void close() {
        credentials.close();
    }

    @Override
    public String toString() {
        return "AWS SigV4 for " + SIGNING_NAME + " in " + region;
    }
}
