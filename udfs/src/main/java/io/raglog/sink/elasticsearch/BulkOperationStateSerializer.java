package io.raglog.sink.elasticsearch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;

/**
 * Writes the sink's buffered operations into a checkpoint: index, id, then the document's bytes as sent. This is
 * what at-least-once rests on: whatever was accepted by the sink but not yet by Elasticsearch is in here.
 *
 * <p>Version 1: {@code UTF index, UTF id, int length, length bytes}. A change of layout bumps the version and keeps
 * reading the old one, like the contracts.
 */
public final class BulkOperationStateSerializer extends AsyncSinkWriterStateSerializer<BulkOperation> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    protected void serializeRequestToStream(BulkOperation operation, DataOutputStream out) throws IOException {
        out.writeUTF(operation.index());
        out.writeUTF(operation.id());
        byte[] document = operation.document();
        out.writeInt(document.length);
        out.write(document);
    }

    @Override
    protected BulkOperation deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String index = in.readUTF();
        String id = in.readUTF();
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("corrupt Elasticsearch sink state: document length " + length + " for _id [" + id
                    + "]");
        }
        byte[] document = new byte[length];
        in.readFully(document);
        return BulkOperation.restored(index, id, document);
    }
}
