package com.example;

import android.content.ContentProviderClient;
import android.content.ContentResolver;

class Provider {
    // A bundled protocol that changes with the level: a second release() throws up to level 23.
    void releaseTwice(ContentResolver resolver) {
        ContentProviderClient client = resolver.acquireContentProviderClient("com.example");
        client.release();
        client.release();
    }
}
